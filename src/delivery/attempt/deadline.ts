import type { Dispatcher } from 'undici';
import {
  type AttemptContext,
  type AttemptPiece,
  AttemptStopped,
  Forward,
  NO_REQUEST,
  type ResponseStart,
  type Seen,
} from './piece.js';

/**
 * One deadline over the whole attempt: connect, TLS handshake, response headers, the whole body, and
 * a retry on a new connection. When it passes, the attempt ends as `timeout` at once (also while the
 * request still waits for a connection) and the request is aborted, which destroys its connection;
 * a request that gets its connection afterwards is aborted before it is written, so it is never
 * sent late. Nothing reaches the next piece after the end it passed on.
 *
 * The caller's `signal` ends the attempt the same way, at once, as `interrupted` (the emulator's
 * doing, not the receiver's), its message naming the signal's reason: an attempt its caller no
 * longer needs (verify's budget spent, the receiver found stuck) is cancelled, and still ends as data.
 */
export class Deadline extends Forward {
  readonly #timer: NodeJS.Timeout;
  #controller: Dispatcher.DispatchController | undefined;
  #ended = false;
  /** The stop that ended the attempt early (the deadline or the caller's signal). */
  #stopped: AttemptStopped | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = () => this.#cancel();

  constructor(
    next: AttemptPiece,
    readonly timeoutMs: number,
    signal?: AbortSignal,
  ) {
    super(next);
    this.#timer = setTimeout(() => this.#expire(this.#timeout()), timeoutMs);
    this.#signal = signal;
    if (signal?.aborted) queueMicrotask(this.#onAbort);
    else signal?.addEventListener('abort', this.#onAbort, { once: true });
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void {
    if (this.#ended) {
      controller.abort(this.#stopped ?? this.#timeout());
      return;
    }
    this.#controller = controller;
    super.onRequestStart(controller, context);
  }

  override onResponseStart(...args: ResponseStart): void {
    if (!this.#ended) super.onResponseStart(...args);
  }

  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (!this.#ended) super.onResponseData(controller, chunk);
  }

  override onResponseEnd(
    controller: Dispatcher.DispatchController,
    trailers: Record<string, string | string[] | undefined>,
  ): void {
    if (this.#end()) super.onResponseEnd(controller, trailers);
  }

  override onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    if (this.#end()) super.onResponseError(controller, error);
  }

  override onRequestRetry(firstTry: string): void {
    if (this.#ended) return;
    this.#controller = undefined;
    super.onRequestRetry(firstTry);
  }

  /** Marks the attempt ended; false when it already was. */
  #end(): boolean {
    if (this.#ended) return false;
    this.#ended = true;
    clearTimeout(this.#timer);
    this.#signal?.removeEventListener('abort', this.#onAbort);
    return true;
  }

  #expire(stop: AttemptStopped): void {
    if (!this.#end()) return;
    this.#stopped = stop;
    this.next.onResponseError(this.#controller ?? NO_REQUEST, stop);
    // Destroys the connection; a request still waiting for one is aborted in onRequestStart.
    this.#controller?.abort(stop);
  }

  #cancel(): void {
    const why = reasonText(this.#signal?.reason);
    this.#expire(new AttemptStopped('interrupted', (seen) => `${CANCELLED} (${where(seen)}): ${why}`));
  }

  #timeout(): AttemptStopped {
    return new AttemptStopped(
      'timeout',
      (seen) => `no complete response within ${this.timeoutMs} ms (${where(seen)})`,
    );
  }
}

/** How the message of a cancelled attempt starts; `(while connecting)` follows when nothing was sent. */
export const CANCELLED = 'cancelled by the emulator';

/** The text of an abort reason: an Error's message, a string as it is. */
function reasonText(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return typeof reason === 'string' && reason !== '' ? reason : 'its caller no longer needed it';
}

function where(seen: Seen): string {
  if (seen.phase === 'connect') return 'while connecting';
  if (seen.phase === 'headers') return 'waiting for the response headers';
  return `reading the response body (status ${seen.statusCode}, ${seen.keptBytes} bytes kept)`;
}
