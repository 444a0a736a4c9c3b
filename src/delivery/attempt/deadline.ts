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
 */
export class Deadline extends Forward {
  readonly #timer: NodeJS.Timeout;
  #controller: Dispatcher.DispatchController | undefined;
  #ended = false;

  constructor(
    next: AttemptPiece,
    readonly timeoutMs: number,
  ) {
    super(next);
    this.#timer = setTimeout(() => this.#expire(), timeoutMs);
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void {
    if (this.#ended) {
      controller.abort(this.#stop());
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
    return true;
  }

  #expire(): void {
    if (!this.#end()) return;
    const stop = this.#stop();
    this.next.onResponseError(this.#controller ?? NO_REQUEST, stop);
    // Destroys the connection; a request still waiting for one is aborted in onRequestStart.
    this.#controller?.abort(stop);
  }

  #stop(): AttemptStopped {
    return new AttemptStopped(
      'timeout',
      (seen) => `no complete response within ${this.timeoutMs} ms (${where(seen)})`,
    );
  }
}

function where(seen: Seen): string {
  if (seen.phase === 'connect') return 'while connecting';
  if (seen.phase === 'headers') return 'waiting for the response headers';
  return `reading the response body (status ${seen.statusCode}, ${seen.keptBytes} bytes kept)`;
}
