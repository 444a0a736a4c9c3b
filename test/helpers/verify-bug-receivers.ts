/**
 * Receivers for the verify kit's second round of tests: a correct receiver written the way teams
 * write them (Bearer check, gunzip, one record per BookingID where the newer UpdateDate wins and a
 * tie goes to the later lifecycle state, a probe at GET /bookings/<BookingID> that returns the stored
 * content members), in several correct styles (a queue, slow answers), and the same receiver with
 * one realistic bug each. Real sockets on 127.0.0.1:0 (`listenLoopback`), plain HTTP (the kit runs
 * with allowHttp) unless TLS material is given.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { gunzipSync } from 'node:zlib';
import { atFileEnd } from './file-hooks.js';
import { listenLoopback, type ReceiverTls } from './verify-receivers.js';

/** One realistic bug; the test names the case(s) each must fail. */
export type Bug =
  /** Stores the notification, then checks the key and answers 401 (the refusal has an effect). */
  | 'stores-before-auth'
  /** `key.startsWith(token)`: a prefix of the key, and an empty token, pass. */
  | 'compares-prefix'
  /** Compares the key without regard to case. */
  | 'compares-any-case'
  /** Takes `Basic base64(user:key)` as well as Bearer. */
  | 'accepts-basic'
  /** One endpoint for all credentials: any of its keys is accepted on any path. */
  | 'accepts-any-credential-key'
  /** 401 to a wrong key, but a request without Authorization is stored and answered 201. */
  | 'answers-201-without-authorization'
  /** A Void of an unknown booking makes a placeholder that the late Issue overwrites. */
  | 'placeholder-overwritten-by-issue'
  /** A Void of an unknown booking is answered 200 and dropped. */
  | 'drops-unknown-void'
  /** Reads the booking, waits for its "database", writes: two updates at once race. */
  | 'read-modify-write'
  /** Decodes the body as Latin-1. */
  | 'decodes-latin1'
  /** Stores amounts rounded to 2 decimals. */
  | 'rounds-amounts'
  /** A proxy in front with a 9 KB request limit (413). */
  | 'proxy-limit-9kb'
  /** Refuses an UpdateDate older than 15 minutes (a "replay" check). */
  | 'refuses-old-update-date'
  /** Keeps the first of two notifications with the same UpdateDate (the tie taken for a duplicate). */
  | 'ignores-equal-update-date'
  /** Answers 400 to a Void that shares its filename with a notification already stored. */
  | 'refuses-void-with-taken-filename'
  /** Expects another key: every notification is answered 401. */
  | 'expects-other-key'
  /** Takes only uncompressed JSON: every gzip body is answered 400. */
  | 'expects-plain-json'
  /** Redirects every POST to the same path with a trailing slash (308). */
  | 'redirects-everything'
  /** The process dies after it answered this many POSTs (`diesAfter`). */
  | 'dies'
  /** Answers 500 to every notification. */
  | 'fails-everything'
  /** Answers 413 while more than 8 requests are in flight (a proxy's buffer pool). */
  | 'refuses-burst-with-413'
  /** Answers 200 with a 100 KiB page to the large bodies (an echo of the request). */
  | 'answers-huge-body'
  /** Answers 200 to a notification with a wrong key, but stores nothing (the key is checked). */
  | 'acks-forged-without-storing'
  /**
   * Answers 200 and puts the notification on a queue of 10 that one worker drains one a second; full:
   * dropped. The worker is slower than any burst the kit sends, however busy the machine: drained
   * every 30 ms it kept up with a burst of 30 that a busy machine spread over two seconds, and
   * nothing was lost.
   */
  | 'full-queue-drops'
  /** Answers 200 and files the notification in an inbox keyed by its arrival time (to 250 ms, emptied as often: one per slot survives; keyed to the ms it loses some of a burst, to 250 ms always). */
  | 'inbox-keyed-by-arrival-time'
  /** Answers 200, then decodes only the first 16 KiB of the body (one read); a larger body is dropped. */
  | 'reads-first-chunk-only'
  /** Compares UpdateDates as en-US text (`toLocaleString('en-US')`). */
  | 'compares-en-us-text'
  /** The later arrival wins a tie on UpdateDate (`>=`). */
  | 'tie-goes-to-later-arrival'
  /** Requires an X-Request-Id header the provider never sends (400 naming it). */
  | 'requires-extra-header'
  /** Requires `Content-Type: application/json; charset=utf-8` exactly (415 naming it). */
  | 'strict-content-type'
  /** Reads UpdateDate as local time of UTC−10, then refuses it as "in the future" (400). */
  | 'local-time-zone'
  // Issue 44: one bug each of a kind the earlier receivers did not have, named by the kit's experiments.
  /** Sums each Tax's TaxDetails with `reduce` and no initial value: an empty array throws (500). */
  | 'sums-empty-tax-details'
  /** Stores names in a 3-byte "utf8" column: a character outside the BMP is refused (500). */
  | 'utf8mb3-name-column'
  /** Validates names with /^[\p{L} '-]+$/u: combining marks are refused (400). */
  | 'name-pattern-without-marks'
  /** Stores LastName in a 40-character column: a longer one is refused (500). */
  | 'last-name-40-characters'
  /** Looks the key up in the raw header list as "authorization" only (401 to "Authorization"). */
  | 'header-name-case-sensitive'
  /** Answers the first request of each connection; a second one on a kept-open connection never. */
  | 'one-request-per-connection'
  /** Answers 415 to any Content-Encoding (a framework that does not inflate); takes plain JSON. */
  | 'refuses-content-encoding'
  /** Rate-limits to 3 requests a second (429 with Retry-After). */
  | 'rate-limited';

export interface BugReceiverOptions {
  bug?: Bug;
  /** Correct style: records after this lag, in order, from a queue (answers 200 at once). */
  queueLagMs?: number;
  /**
   * Correct style: a queue that records a notification only once the probe has been asked for its
   * booking, so the first read of every booking finds it missing however fast the machine runs.
   */
  recordsWhenAsked?: boolean;
  /** Correct style: answers every POST after this many ms. */
  slowMs?: number;
  /** Correct style: answers every POST 200 with a body of this many bytes (over the 64 KiB cap). */
  answerBodyBytes?: number;
  /** Correct style (warned): answers 503 to a Void of a booking it does not know once, then takes it. */
  defersUnknownVoid?: boolean;
  /** Another credential's key this receiver also serves (`accepts-any-credential-key`). */
  otherKey?: string;
  /**
   * `full-queue-drops`: answers a notification it queued this many ms late and one it dropped at
   * once, so the order the kit sees the answers in is not its queue's order (as on a loaded machine).
   */
  queuedAnswerMs?: number;
  /** A stalled worker: records (from a queue) the first this many notifications, then nothing; answers 200 throughout. */
  stallAfter?: number;
  /** `dies`: POSTs answered before the process "dies" (the server closes, connections reset). */
  diesAfter?: number;
  tls?: ReceiverTls;
}

export interface BugReceiver {
  url: string;
  probe: string;
  /** POSTs received. */
  posts(): number;
  close(): Promise<void>;
}

interface Stored {
  BookingID: number;
  BookingNumber: string;
  BookingStatus: string;
  UpdateDate: string;
  Pax: Array<{ FirstName: string; LastName: string }>;
  RatioAmount?: number;
  RawDataLength: number;
}

/** The members of a body this receiver reads. */
interface LooseBody {
  Reservation: { BookingID: number; BookingNumber: string; BookingStatus: string; UpdateDate: string };
  Pax: Array<{ FirstName: string; LastName: string }>;
  Ratio?: Array<{ Amount: number }>;
  Ticket: Array<{ RawData: string }>;
  Tax?: Array<{ TaxDetails?: Array<{ Amount: number }> }>;
}

/** Later lifecycle states win a tie on UpdateDate (docs/verify.md "The tie rule"). */
const RANK: Record<string, number> = { Issued: 0, 'Issued-Exch': 1, Exchanged: 2, Voided: 2 };
const FIFTEEN_MINUTES_MS = 15 * 60_000;
const open = new Set<BugReceiver>();

// Once per file, not after each test: a test may run concurrently with others (`it.concurrent`), and
// closing every open receiver after one test would cut the others' off. A test that wants its
// receiver gone sooner closes it itself.
atFileEnd(async () => {
  const closing = [...open].map((r) => r.close());
  open.clear();
  await Promise.all(closing);
});

/** Whether `next` replaces `current` (newer UpdateDate; on a tie, the later lifecycle state). */
function newer(next: Stored, current: Stored | undefined, bug: Bug | undefined): boolean {
  if (!current) return true;
  if (bug === 'compares-en-us-text') {
    const text = (s: string) => new Date(s).toLocaleString('en-US', { timeZone: 'UTC' });
    return text(next.UpdateDate) >= text(current.UpdateDate);
  }
  const d = Date.parse(next.UpdateDate) - Date.parse(current.UpdateDate);
  if (d !== 0) return d > 0;
  if (bug === 'ignores-equal-update-date') return false;
  if (bug === 'tie-goes-to-later-arrival') return true;
  return (RANK[next.BookingStatus] ?? 0) > (RANK[current.BookingStatus] ?? 0);
}

/** Starts a receiver for `apiKey` on 127.0.0.1:0. */
export async function bugReceiver(apiKey: string, o: BugReceiverOptions = {}): Promise<BugReceiver> {
  const bug = o.bug;
  const bookings = new Map<number, Stored>();
  const placeholders = new Set<number>();
  const filenames = new Set<string>();
  const deferred = new Set<number>();
  let posts = 0;
  let answered = 0;
  const recent: number[] = [];
  const perSocket = new WeakMap<object, number>();
  let inFlight = 0;
  let lastArrival = 0;
  let dead = false;

  const record = (state: Stored) => {
    if (
      bug === 'placeholder-overwritten-by-issue' &&
      placeholders.has(state.BookingID) &&
      state.BookingStatus !== 'Voided'
    ) {
      placeholders.delete(state.BookingID);
      bookings.set(state.BookingID, state);
      return;
    }
    if (newer(state, bookings.get(state.BookingID), bug)) bookings.set(state.BookingID, state);
  };
  // A queue with a fixed latency: each notification is recorded queueLagMs after it was answered,
  // in arrival order (the same delay for all keeps the order).
  const queue: Stored[] = [];
  const inbox = new Map<number, Stored>();
  let recordedCount = 0;
  // recordsWhenAsked: the notifications of each booking waiting for the probe's next read of it.
  const untilAsked = new Map<number, Stored[]>();
  const later = (work: () => void, state: Stored) => {
    if (o.recordsWhenAsked)
      untilAsked.set(state.BookingID, [...(untilAsked.get(state.BookingID) ?? []), state]);
    else if (!o.queueLagMs) work();
    else setTimeout(work, o.queueLagMs);
  };
  // The worker of 'full-queue-drops' and 'inbox-keyed-by-arrival-time'.
  const worker =
    bug === 'full-queue-drops' || bug === 'inbox-keyed-by-arrival-time'
      ? setInterval(
          () => {
            if (bug === 'full-queue-drops') {
              const next = queue.shift();
              if (next) record(next);
            } else {
              for (const state of inbox.values()) record(state);
              inbox.clear();
            }
          },
          bug === 'full-queue-drops' ? 1_000 : 250,
        )
      : undefined;

  const keyOk = (auth: string | undefined): boolean => {
    if (auth === `Bearer ${apiKey}`) return true;
    if (auth === undefined) return false;
    const bearer = /^Bearer (.*)$/.exec(auth)?.[1];
    // `auth.slice('Bearer '.length)` then a prefix compare: an empty token and a prefix pass.
    if (bug === 'compares-prefix' && auth.startsWith('Bearer'))
      return apiKey.startsWith(auth.slice(7).trim());
    if (bug === 'compares-any-case' && bearer !== undefined)
      return bearer.toLowerCase() === apiKey.toLowerCase();
    if (bug === 'accepts-any-credential-key' && bearer === o.otherKey) return true;
    if (bug === 'accepts-basic' && auth.startsWith('Basic ')) {
      return Buffer.from(auth.slice(6), 'base64').toString('utf8').split(':').at(-1) === apiKey;
    }
    return false;
  };

  const parse = (raw: Buffer): { text: string; state: Stored; body: LooseBody } => {
    const unpacked =
      bug === 'expects-plain-json' || bug === 'refuses-content-encoding' ? raw : gunzipSync(raw);
    const text = unpacked.toString(bug === 'decodes-latin1' ? 'latin1' : 'utf8');
    const body = JSON.parse(text) as LooseBody;
    const r = body.Reservation;
    const amount = body.Ratio?.[0]?.Amount;
    return {
      text,
      body,
      state: {
        BookingID: r.BookingID,
        BookingNumber: r.BookingNumber,
        BookingStatus: r.BookingStatus,
        UpdateDate: r.UpdateDate,
        Pax: body.Pax.map((p) => ({
          FirstName: p.FirstName,
          LastName: p.LastName,
        })),
        ...(amount === undefined
          ? {}
          : { RatioAmount: bug === 'rounds-amounts' ? Math.round(amount * 100) / 100 : amount }),
        RawDataLength: [...String(body.Ticket[0]?.RawData)].length,
      },
    };
  };

  /** Answers one POST: [status, body, headers]. */
  const decide = async (
    req: IncomingMessage,
    raw: Buffer,
  ): Promise<[number, string, Record<string, string>?]> => {
    if (bug === 'redirects-everything') return [308, 'moved', { location: `${req.url}/` }];
    if (bug === 'proxy-limit-9kb' && Number(req.headers['content-length']) > 9_000)
      return [413, '<html><body><h1>413 Request Entity Too Large</h1></body></html>'];
    if (bug === 'refuses-burst-with-413') {
      // The proxy's buffers are shared: while they are busy, a request body is "too large". A request
      // is held until no other has arrived for 500 ms, so a burst overlaps however slowly a loaded
      // machine opens its connections, and a request alone is never refused.
      let peak = inFlight;
      while (Date.now() - lastArrival < 500 && peak <= 8) {
        await sleep(50);
        peak = Math.max(peak, inFlight);
      }
      if (peak > 8) return [413, 'request entity too large'];
    }
    if (bug === 'fails-everything') return [500, 'internal error'];
    if (bug === 'rate-limited') {
      const now = Date.now();
      while (recent.length > 0 && recent[0]! <= now - 1_000) recent.shift();
      if (recent.length >= 3) return [429, 'Too Many Requests', { 'retry-after': '1' }];
      recent.push(now);
    }
    if (bug === 'refuses-content-encoding' && req.headers['content-encoding'] !== undefined)
      return [415, 'Unsupported Media Type'];
    if (bug === 'requires-extra-header' && req.headers['x-request-id'] === undefined)
      return [400, '{"error":"missing required header X-Request-Id"}'];
    if (bug === 'strict-content-type' && req.headers['content-type'] !== 'application/json; charset=utf-8')
      return [
        415,
        `unsupported Content-Type ${req.headers['content-type']}: expected application/json; charset=utf-8`,
      ];
    // rawHeaders keeps the names as sent; this receiver was written against a proxy that lower-cased them.
    const auth =
      bug === 'header-name-case-sensitive'
        ? req.rawHeaders[req.rawHeaders.indexOf('authorization') + 1]
        : req.headers.authorization;
    if (bug === 'header-name-case-sensitive' && !req.rawHeaders.includes('authorization'))
      return [401, 'unknown or missing Bearer ApiKey'];
    if (bug === 'stores-before-auth') {
      const { state } = parse(raw);
      record(state);
      if (!keyOk(auth)) return [401, 'unknown Bearer ApiKey'];
      return [200, 'OK'];
    }
    if (bug === 'answers-201-without-authorization' && auth === undefined) {
      record(parse(raw).state);
      return [201, 'created'];
    }
    if (bug === 'acks-forged-without-storing' && !keyOk(auth)) return [200, 'OK'];
    if (bug === 'expects-other-key' || !keyOk(auth)) return [401, 'unknown or missing Bearer ApiKey'];
    if (bug === 'reads-first-chunk-only') {
      // Answers first, then decodes what one 16 KiB read gave: a larger body fails to decode, silently.
      try {
        record(parse(raw.subarray(0, 16 * 1024)).state);
      } catch {}
      return [200, 'OK'];
    }
    const { state, text, body } = parse(raw);
    if (bug === 'sums-empty-tax-details') {
      try {
        for (const t of body.Tax ?? []) t.TaxDetails?.reduce((a, d) => ({ Amount: a.Amount + d.Amount }));
      } catch (err) {
        return [500, `${(err as Error).name}: ${(err as Error).message}`];
      }
    }
    const names = state.Pax.flatMap((p) => [p.FirstName, p.LastName]);
    if (bug === 'utf8mb3-name-column') {
      const wide = names.find((n) => [...n].some((c) => c.codePointAt(0)! > 0xffff));
      if (wide)
        return [
          500,
          `Incorrect string value: '\\x${Buffer.from([...wide].find((c) => c.codePointAt(0)! > 0xffff)!)
            .toString('hex')
            .match(/../g)!
            .join('\\x')}' for column 'name' at row 1`,
        ];
    }
    if (bug === 'name-pattern-without-marks' && names.some((n) => !/^[\p{L} '-]+$/u.test(n)))
      return [400, '{"error":"invalid passenger name"}'];
    if (bug === 'last-name-40-characters' && state.Pax.some((p) => [...p.LastName].length > 40))
      return [500, "Data too long for column 'last_name' at row 1"];
    // "2026-11-25T19:00:00" as local time in UTC−10 is 05:00Z the next day: "in the future".
    if (bug === 'local-time-zone' && Date.parse(state.UpdateDate) + 10 * 3_600_000 > Date.now() + 60_000)
      return [400, `UpdateDate ${state.UpdateDate.replace('Z', '')} is in the future`];
    if (bug === 'refuses-old-update-date' && Date.now() - Date.parse(state.UpdateDate) > FIFTEEN_MINUTES_MS)
      return [400, 'UpdateDate too old: possible replay'];
    const filename = /filename=([^;]+)/.exec(String(req.headers['content-disposition']))?.[1] ?? '';
    if (
      bug === 'refuses-void-with-taken-filename' &&
      state.BookingStatus === 'Voided' &&
      filenames.has(filename)
    )
      return [400, 'duplicate file'];
    filenames.add(filename);
    const unknownVoid = state.BookingStatus === 'Voided' && !bookings.has(state.BookingID);
    if (o.defersUnknownVoid && unknownVoid && !deferred.has(state.BookingID)) {
      deferred.add(state.BookingID);
      return [503, 'unknown booking: try again later'];
    }
    if (bug === 'drops-unknown-void' && unknownVoid) return [200, 'OK'];
    if (bug === 'placeholder-overwritten-by-issue' && unknownVoid) placeholders.add(state.BookingID);
    if (bug === 'read-modify-write') {
      // Read the booking, decide, then write once the "transaction" is done (an Issue writes more
      // rows): no lock, so two updates that overlap both decide on what they read.
      const wins = newer(state, bookings.get(state.BookingID), bug);
      await sleep(state.BookingStatus === 'Issued' ? 300 : 200);
      if (wins) bookings.set(state.BookingID, state);
      return [200, 'OK'];
    }
    if (bug === 'full-queue-drops') {
      if (queue.length >= 10) return [200, 'OK'];
      queue.push(state);
      if (o.queuedAnswerMs) await sleep(o.queuedAnswerMs);
      return [200, 'OK'];
    }
    if (bug === 'inbox-keyed-by-arrival-time') {
      inbox.set(Math.floor(Date.now() / 250), state);
      return [200, 'OK'];
    }
    if (o.stallAfter !== undefined) {
      // The worker hangs after stallAfter notifications; the front end keeps answering 200.
      if (recordedCount++ < o.stallAfter) later(() => record(state), state);
      return [200, 'OK'];
    }
    later(() => record(state), state);
    if (bug === 'answers-huge-body' && text.length > 20_000) return [200, 'x'.repeat(100 * 1024)];
    if (o.answerBodyBytes) return [200, 'x'.repeat(o.answerBodyBytes)];
    return [200, 'OK'];
  };

  const probe = (path: string): [number, string] => {
    const m = /^\/bookings\/(\d+)$/.exec(path);
    if (!m) return [404, 'no such route'];
    const id = Number(m[1]);
    const state = bookings.get(id);
    // Answered as it stands; what waited for this read is recorded for the next one.
    for (const waiting of untilAsked.get(id) ?? []) record(waiting);
    untilAsked.delete(id);
    return state ? [200, JSON.stringify(state)] : [404, '{"error":"unknown booking"}'];
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    const served = (perSocket.get(req.socket) ?? 0) + 1;
    perSocket.set(req.socket, served);
    // Reads one request per connection and then never the next (a hand-written accept loop).
    if (bug === 'one-request-per-connection' && served > 1) return;
    if (req.method === 'POST') {
      inFlight++;
      lastArrival = Date.now();
    }
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      if (req.method === 'GET') {
        const [status, text] = probe(req.url ?? '/');
        res.writeHead(status, { 'content-type': 'application/json' }).end(text);
        return;
      }
      posts++;
      let answer: [number, string, Record<string, string>?];
      try {
        answer = await decide(req, Buffer.concat(chunks));
      } catch (err) {
        answer = [400, (err as Error).message];
      }
      if (o.slowMs) await sleep(o.slowMs);
      inFlight--;
      res.writeHead(answer[0], { 'content-type': 'text/plain', ...answer[2] }).end(answer[1]);
      answered++;
      if (bug === 'dies' && answered >= (o.diesAfter ?? 5) && !dead) {
        dead = true;
        // The process is gone: the listening socket closes, open connections reset.
        setImmediate(() => void loopback.close());
      }
    });
  };
  const loopback = await listenLoopback(handle, o.tls);
  const { base } = loopback;
  const receiver: BugReceiver = {
    url: `${base}/reportbo`,
    probe: `${base}/bookings/{BookingID}`,
    posts: () => posts,
    close: () => {
      open.delete(receiver);
      clearInterval(worker);
      return loopback.close();
    },
  };
  open.add(receiver);
  return receiver;
}
