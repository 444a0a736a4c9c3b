import type { Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { undici } from './undici.js';

/**
 * What the sender knows about the request last written on one connection: whether the connection
 * was reused and whether any byte of the answer came back. An attempt that failed on a reused
 * connection before any byte came back never reached the receiver (docs/delivery.md "Reused
 * connections").
 */
export interface ConnectionUse {
  /** Requests written on this connection so far (2 or more: the connection was reused). */
  requests: number;
  /** Bytes received since the last request was written (interim responses included). */
  answerBytes: number;
  /** Interim (1xx) responses dropped since the last request was written. */
  interim: number;
}

/** A request's view of its connection: the use record and which request on it was this one. */
export interface RequestOnConnection {
  use: ConnectionUse;
  /** 1 for the first request on the connection. */
  index: number;
}

/** An interim head longer than this is not one: the bytes go to the parser, which rejects them. */
const MAX_INTERIM_HEAD_BYTES = 8192;
const HTTP_1 = Buffer.from('HTTP/1.');
const HEAD_END = Buffer.from('\r\n\r\n');

type Verdict = number | 'more' | 'final';

/**
 * Whether `data` starts with an interim response head (`HTTP/1.x 1xx …\r\n\r\n`, 101 excepted):
 * its length, `more` when the bytes so far could still be one, `final` when they cannot.
 */
export function interimHead(data: Buffer): Verdict {
  const known = Math.min(data.length, HTTP_1.length);
  if (data.compare(HTTP_1, 0, known, 0, known) !== 0) return 'final';
  const checks: Array<(b: number) => boolean> = [
    (b) => b === 0x30 || b === 0x31, // HTTP/1.0 or HTTP/1.1
    (b) => b === 0x20,
    (b) => b === 0x31, // status 1xx
    isDigit,
    isDigit,
  ];
  for (let i = 0; i < checks.length; i++) {
    const at = HTTP_1.length + i;
    if (at >= data.length) return 'more';
    if (!checks[i]!(data[at]!)) return 'final';
  }
  // 101 Switching Protocols is a final answer to an upgrade, never sent to a POST like this one.
  if (data[10] === 0x30 && data[11] === 0x31) return 'final';
  const end = data.indexOf(HEAD_END, 12);
  if (end === -1) return data.length > MAX_INTERIM_HEAD_BYTES ? 'final' : 'more';
  return end + HEAD_END.length;
}

function isDigit(b: number): boolean {
  return b >= 0x30 && b <= 0x39;
}

/**
 * Drops interim (1xx) responses in front of the final response of each request, as RFC 9110 §15.2
 * requires of every client ("A client MUST be able to parse one or more 1xx responses received
 * prior to a final response, even if the client does not expect one"). undici destroys the
 * connection on a `100 Continue` it did not ask for (it never sends `Expect`), so the bytes are
 * removed before its parser sees them.
 */
export class InterimFilter {
  #awaitingHead = false;
  #held: Buffer | undefined;
  dropped = 0;

  /** A request was written: the next bytes begin its answer. */
  requestWritten(): void {
    this.#awaitingHead = true;
    this.#held = undefined;
    this.dropped = 0;
  }

  /** The bytes to hand to the parser for `chunk` (none while an interim head may still be arriving). */
  take(chunk: Buffer): Buffer | undefined {
    if (!this.#awaitingHead) return chunk;
    let data = this.#held === undefined ? chunk : Buffer.concat([this.#held, chunk]);
    this.#held = undefined;
    for (;;) {
      const verdict = interimHead(data);
      if (verdict === 'final') {
        this.#awaitingHead = false;
        return data.length === 0 ? undefined : data;
      }
      if (verdict === 'more') {
        this.#held = data;
        return undefined;
      }
      this.dropped++;
      data = data.subarray(verdict);
      if (data.length === 0) return undefined;
    }
  }

  /** Bytes held back when the connection ends (they go to the parser, which reports them). */
  flush(): Buffer | undefined {
    const held = this.#held;
    this.#held = undefined;
    return held;
  }
}

type ConnectOptions = buildConnector.BuildOptions;
type Claim = (request: RequestOnConnection) => void;

/**
 * Wraps undici's connector so the sender sees each connection it uses: which request a connection
 * carries (reused or fresh) and how many answer bytes came back, and so interim responses are
 * dropped. undici says neither per request; the sender asks for them through `claimNextRequest`,
 * called in `onRequestStart`, which undici runs synchronously right before it writes that
 * request's head on the connection (dispatcher/client-h1.js `writeH1`).
 */
export class ConnectionWatch {
  #claim: Claim | undefined;
  /**
   * When (epoch ms) a receiver last showed it is working: a TLS handshake completed (the receiver's
   * process ran it; a plain TCP connect completes in the kernel's backlog alone) or an answer byte
   * came back. 0 before any. verify's held cut waits on it (decision 0258).
   */
  signOfLifeAt = 0;

  /**
   * Sockets still connecting (a connect waiting in the kernel's SYN retransmissions to a full listen
   * backlog): undici's destroy does not end them, so `endConnects` does (decision 0260).
   */
  readonly #connecting = new Set<Socket>();

  /** undici's connector for `options`, watching every socket it opens. */
  connector(options: ConnectOptions): buildConnector.connector {
    const connect = undici().buildConnector(options);
    return (opts, callback) => {
      // undici's connector returns the socket it opened (its type says void).
      const opening = (connect as (...a: Parameters<typeof connect>) => Socket | undefined)(
        opts,
        (err, socket) => {
          if (opening) this.#connecting.delete(opening);
          if (socket) {
            if ((socket as { encrypted?: boolean }).encrypted) this.signOfLifeAt = Date.now();
            this.#watch(socket as Socket);
          }
          // undici's callback type is a union of the error and the success signature.
          (callback as (e: Error | null, s: typeof socket) => void)(err, socket);
        },
      );
      if (opening && !opening.destroyed) {
        this.#connecting.add(opening);
        opening.once('close', () => this.#connecting.delete(opening));
      }
    };
  }

  /** Ends every connect still in progress at once (the sender is closing: nothing will use them). */
  endConnects(): void {
    for (const socket of this.#connecting) socket.destroy();
    this.#connecting.clear();
  }

  /** The next request head written on a watched connection belongs to `claim`. */
  claimNextRequest(claim: Claim): void {
    this.#claim = claim;
  }

  #watch(socket: Socket): void {
    const alive = () => {
      this.signOfLifeAt = Date.now();
    };
    const use: ConnectionUse = { requests: 0, answerBytes: 0, interim: 0 };
    const filter = new InterimFilter();
    const write = socket.write;
    const push = socket.push;
    const watchClaim = (u: ConnectionUse) => {
      const claim = this.#claim;
      this.#claim = undefined;
      claim?.({ use: u, index: u.requests });
    };
    // undici writes a request head as one latin1 string and a Buffer body after it; the sender's
    // bodies are always Buffers, so a string write is the start of a request.
    socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
      if (typeof chunk === 'string') {
        use.requests++;
        use.answerBytes = 0;
        use.interim = 0;
        filter.requestWritten();
        watchClaim(use);
      }
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Socket['write'];
    socket.push = function (this: Socket, chunk: unknown, encoding?: BufferEncoding) {
      if (chunk === null) {
        const held = filter.flush();
        if (held) push.call(this, held);
        return push.call(this, null);
      }
      const bytes = chunk as Buffer;
      use.answerBytes += bytes.length;
      alive();
      const out = filter.take(bytes);
      use.interim = filter.dropped;
      return out === undefined ? true : push.call(this, out, encoding);
    };
  }
}
