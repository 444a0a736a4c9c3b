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

/**
 * Which half of an Exchange the receiver takes first, whatever order they arrive in (the kit sends
 * both at once, so either may arrive first): `old` holds the Issued-Exch until the Exchanged
 * arrived, `new` the other way round. A verdict that must not depend on arrival order is checked
 * under both.
 */
export type ExchangeOrder = 'old' | 'new';

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
  exchangeFirst?: ExchangeOrder,
): Promise<TestReceiver> {
  const bookings = new Map<number, State>();
  const byFilename = new Map<string, State>();
  const seenBodies = new Set<string>();
  const deferred = new Set<number>();
  // Notifications by `${BookingID} ${BookingStatus}`: taken in (decided or held; a forced Exchange
  // order waits on it), and recorded (the filename mistakes' Exchange order waits on it).
  const arrived = keyedEvents();
  const recorded = keyedEvents();
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
    recorded.add(`${r.BookingID} ${r.BookingStatus}`);
    return mistake === 'answers-202' ? [202, 'accepted'] : [200, 'OK'];
  };

  /** Answers a request taken in, once the request the filename mistakes hold it for was recorded. */
  const take = (req: IncomingMessage, res: ServerResponse, raw: Buffer, r: Reservation | undefined) => {
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
    // Held until the other half of the Exchange is recorded (both are sent at once).
    recorded.after(byFilenameMistake && r ? heldUntil(r, mistake) : undefined, respond);
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const r = req.method === 'POST' ? reservationOf(raw) : undefined;
      const second = exchangeFirst === 'old' ? 'Issued-Exch' : 'Exchanged';
      arrived.after(r && exchangeFirst ? otherHalf(r, second) : undefined, () => {
        take(req, res, raw, r);
        // After it was taken in (decided or held), so the other half comes behind it.
        if (r) arrived.add(`${r.BookingID} ${r.BookingStatus}`);
      });
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
 * For the filename mistakes, the notification one waits for: plain `records-by-filename` holds an
 * Issued-Exch until its Exchanged is recorded, the `-exchanged-late` one holds an Exchanged until its
 * Issued-Exch is. The status counts: the old booking's own Issue, recorded before the Exchange, must
 * not release it (decision 0264).
 */
function heldUntil(r: Reservation, mistake: Mistake | undefined): string | undefined {
  if (mistake === 'records-by-filename') return otherHalf(r, 'Issued-Exch');
  if (mistake === 'records-by-filename-exchanged-late') return otherHalf(r, 'Exchanged');
  return undefined;
}

/** The reservation of a notification's gzip body, or undefined when it is not one. */
function reservationOf(raw: Buffer): Reservation | undefined {
  try {
    return (JSON.parse(gunzipSync(raw).toString('utf8')) as { Reservation?: Reservation }).Reservation;
  } catch {
    return undefined;
  }
}

interface Reservation {
  BookingID: number;
  BookingStatus: string;
  ExchangedTo?: number;
  ExchangedFrom?: number;
}

/**
 * When `r` is the `half` of an Exchange, its other half (`${BookingID} ${BookingStatus}`, the key
 * `arrived` and `recorded` keep), else undefined.
 */
function otherHalf(r: Reservation, half: 'Exchanged' | 'Issued-Exch'): string | undefined {
  if (r.BookingStatus !== half) return undefined;
  if (half === 'Issued-Exch')
    return r.ExchangedFrom === undefined ? undefined : `${r.ExchangedFrom} Exchanged`;
  // The maximal body is Exchanged with both links and no other half: it waits for nothing.
  return r.ExchangedTo === undefined || r.ExchangedFrom ? undefined : `${r.ExchangedTo} Issued-Exch`;
}

/** How long a request waits for another at most (a notification whose other half never comes). */
const HOLD_MS = 10_000;

/**
 * Keys seen and what waits on each: a test receiver orders two requests on the event that the
 * first one arrived or was recorded, not on a timer.
 */
function keyedEvents() {
  const seen = new Set<string>();
  const waiting = new Map<string, Array<() => void>>();
  return {
    add(key: string): void {
      seen.add(key);
      for (const go of waiting.get(key) ?? []) go();
      waiting.delete(key);
    },
    /** Runs `then` once `key` was added (at once when it was, or when there is none), or after HOLD_MS. */
    after(key: string | undefined, then: () => void): void {
      if (key === undefined || seen.has(key)) {
        then();
        return;
      }
      let done = false;
      const go = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        then();
      };
      const timer = setTimeout(go, HOLD_MS);
      waiting.set(key, [...(waiting.get(key) ?? []), go]);
    },
  };
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
