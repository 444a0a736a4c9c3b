/**
 * Receivers for the verify kit's tests: a correct one (Bearer check, gunzip, state per booking with
 * the newest UpdateDate winning, a probe at GET /bookings/<BookingID>) and the same receiver with
 * exactly one mistake switched on. Real sockets, plain HTTP on loopback (the kit runs with allowHttp)
 * unless TLS material is given.
 */
import { once } from 'node:events';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { SecureVersion } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import { atFileEnd } from './file-hooks.js';

/** One mistake a real receiver makes; each should fail exactly one verify case. */
export type Mistake =
  | 'answers-202'
  | 'accepts-any-key'
  | 'accepts-missing-authorization'
  | 'conflict-on-duplicate'
  | 'refuses-non-ascii'
  | 'refuses-void-before-issue'
  | 'hangs-when-unauthenticated'
  | 'records-by-filename'
  /**
   * The same filename mistake, with an Exchange's new reservation (Issued-Exch, same filename) taking
   * the filename first: its old one (Exchanged) is held until the Issued-Exch was recorded.
   * Plain `records-by-filename` holds the other way round, so neither depends on arrival order.
   */
  | 'records-by-filename-exchanged-late'
  /** Not a failure: answers 503 to a Void of an unknown booking once, then accepts it (a warning). */
  | 'defers-void-before-issue';

export interface TestReceiver {
  url: string;
  /** Probe template for `--probe`. */
  probe: string;
  /** Requests received (POST and GET). */
  count(): number;
  close(): Promise<void>;
}

interface State {
  BookingID: number;
  BookingNumber: string;
  BookingStatus: string;
  UpdateDate: string;
}

const RANK: Record<string, number> = { Issued: 0, 'Issued-Exch': 1, Exchanged: 2, Voided: 2 };
const open = new Set<TestReceiver>();

// Once per file, not after each test: a test may run concurrently with others (`it.concurrent`), and
// closing every open receiver after one test would cut the others' off. A test that wants its
// receiver gone sooner closes it itself.
atFileEnd(async () => {
  const closing = [...open].map((r) => r.close());
  open.clear();
  await Promise.all(closing);
});

/** Starts a receiver for `apiKey` on 127.0.0.1:0, correct or with one `mistake`. */
export async function verifyTestReceiver(
  apiKey: string,
  mistake?: Mistake,
  tls?: { certPem: string; keyPem: string },
): Promise<TestReceiver> {
  const bookings = new Map<number, State>();
  const byFilename = new Map<string, State>();
  const seenBodies = new Set<string>();
  const deferred = new Set<number>();
  // Exchange order for the filename mistakes: BookingIDs recorded, and requests held for one of them.
  const recorded = new Set<number>();
  const heldFor = new Map<number, Array<() => void>>();
  let requests = 0;

  const byFilenameMistake =
    mistake === 'records-by-filename' || mistake === 'records-by-filename-exchanged-late';
  const decide = (req: IncomingMessage, raw: Buffer): [number, string] | 'hang' => {
    const path = req.url ?? '/';
    const auth = req.headers.authorization;
    const keyOk = auth === `Bearer ${apiKey}`;
    if (req.method === 'GET') {
      const m = /^\/bookings\/(\d+)$/.exec(path);
      if (!m) return [404, 'no such route'];
      const state = byFilenameMistake
        ? // One file per filename; the booking reads as its newest file (UpdateDate, then lifecycle).
          [...byFilename.values()]
            .filter((s) => s.BookingID === Number(m[1]))
            .sort(
              (x, y) =>
                Date.parse(x.UpdateDate) - Date.parse(y.UpdateDate) ||
                (RANK[x.BookingStatus] ?? 0) - (RANK[y.BookingStatus] ?? 0),
            )
            .at(-1)
        : bookings.get(Number(m[1]));
      return state ? [200, JSON.stringify(state)] : [404, '{"error":"unknown booking"}'];
    }
    if (!keyOk) {
      if (mistake === 'hangs-when-unauthenticated') return 'hang';
      if (auth === undefined && mistake === 'accepts-missing-authorization') {
        // falls through: takes the notification
      } else if (auth !== undefined && mistake === 'accepts-any-key') {
        // falls through
      } else return [401, 'unknown or missing Bearer ApiKey'];
    }
    const text = gunzipSync(raw).toString('utf8');
    const body = JSON.parse(text) as { Reservation: State };
    const r = body.Reservation;
    if (mistake === 'refuses-non-ascii' && /[^ -~\t\n\r]/.test(text)) return [422, 'names must be ASCII'];
    if (mistake === 'refuses-void-before-issue' && r.BookingStatus === 'Voided' && !bookings.has(r.BookingID))
      return [404, `unknown booking ${r.BookingID}`];
    if (
      mistake === 'defers-void-before-issue' &&
      r.BookingStatus === 'Voided' &&
      !bookings.has(r.BookingID)
    ) {
      if (!deferred.has(r.BookingID)) {
        deferred.add(r.BookingID);
        return [503, 'unknown booking: try again later'];
      }
    }
    if (mistake === 'conflict-on-duplicate' && seenBodies.has(text)) return [409, 'duplicate'];
    seenBodies.add(text);
    const state = {
      BookingID: r.BookingID,
      BookingNumber: r.BookingNumber,
      BookingStatus: r.BookingStatus,
      UpdateDate: r.UpdateDate,
    };
    const filename = /filename=([^;]+)/.exec(String(req.headers['content-disposition']))?.[1] ?? '';
    // The filename mistake: a second notification under a taken filename is taken for a duplicate.
    if (!byFilename.has(filename)) byFilename.set(filename, state);
    const current = bookings.get(r.BookingID);
    const newer =
      !current ||
      Date.parse(state.UpdateDate) > Date.parse(current.UpdateDate) ||
      (state.UpdateDate === current.UpdateDate &&
        (RANK[state.BookingStatus] ?? 0) > (RANK[current.BookingStatus] ?? 0));
    if (newer) bookings.set(r.BookingID, state);
    recorded.add(r.BookingID);
    for (const release of heldFor.get(r.BookingID) ?? []) release();
    heldFor.delete(r.BookingID);
    return mistake === 'answers-202' ? [202, 'accepted'] : [200, 'OK'];
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const respond = () => {
        let answer: [number, string] | 'hang';
        try {
          answer = decide(req, raw);
        } catch (err) {
          answer = [400, (err as Error).message];
        }
        if (answer === 'hang') return;
        res.writeHead(answer[0], { 'content-type': 'text/plain' }).end(answer[1]);
      };
      const partner = byFilenameMistake && req.method === 'POST' ? heldUntil(raw, mistake) : undefined;
      if (partner === undefined || recorded.has(partner)) return respond();
      // Held until the other half of the Exchange is recorded (both are sent at once), or 10 s.
      const timer = setTimeout(respond, 10_000);
      heldFor.set(partner, [
        ...(heldFor.get(partner) ?? []),
        () => {
          clearTimeout(timer);
          respond();
        },
      ]);
    });
  };
  const { base, close } = await listenLoopback(handle, tls);
  const receiver: TestReceiver = {
    url: `${base}/reportbo`,
    probe: `${base}/bookings/{BookingID}`,
    count: () => requests,
    close: () => {
      open.delete(receiver);
      return close();
    },
  };
  open.add(receiver);
  return receiver;
}

/**
 * For the filename mistakes, the BookingID a notification (gzip) waits for: plain
 * `records-by-filename` holds an Issued-Exch until its ExchangedFrom is recorded, the
 * `-exchanged-late` one holds an Exchanged until its ExchangedTo is.
 */
function heldUntil(raw: Buffer, mistake: Mistake | undefined): number | undefined {
  try {
    const r = JSON.parse(gunzipSync(raw).toString('utf8')).Reservation;
    if (mistake === 'records-by-filename' && r?.BookingStatus === 'Issued-Exch') return r.ExchangedFrom;
    // The maximal body is Exchanged with both links and no other half: it is not held.
    if (
      mistake === 'records-by-filename-exchanged-late' &&
      r?.BookingStatus === 'Exchanged' &&
      !r.ExchangedFrom
    )
      return r.ExchangedTo;
  } catch {
    // not a notification: answered without waiting
  }
  return undefined;
}

/** TLS material of a test receiver; min/max versions let a receiver refuse TLS 1.2 or 1.3. */
export interface ReceiverTls {
  certPem: string;
  keyPem: string;
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
}

/** A server on 127.0.0.1:0 (HTTPS as `localhost` with `tls`) that closes its kept-alive connections too. */
export interface LoopbackServer {
  /** `http(s)://host:port`, no path. */
  base: string;
  /** Stops listening and destroys every open connection (a no-op once stopped). */
  close(): Promise<void>;
}

/** Listens on loopback with `handle`, tracking the sockets so `close` can drop them. */
export async function listenLoopback(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  tls?: ReceiverTls,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = tls
    ? createHttpsServer(
        {
          cert: tls.certPem,
          key: tls.keyPem,
          ...(tls.minVersion ? { minVersion: tls.minVersion } : {}),
          ...(tls.maxVersion ? { maxVersion: tls.maxVersion } : {}),
        },
        handle,
      )
    : createHttpServer(handle);
  server.on('connection', (sock: Socket) => {
    sockets.add(sock);
    sock.once('close', () => sockets.delete(sock));
  });
  server.on('tlsClientError', () => {});
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    base: `${tls ? 'https' : 'http'}://${tls ? 'localhost' : '127.0.0.1'}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) {
          resolve();
          return;
        }
        server.close(() => resolve());
        for (const sock of sockets) sock.destroy();
      }),
  };
}
