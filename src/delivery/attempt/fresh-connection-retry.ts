import type { Dispatcher } from 'undici';
import { classifyFailure, failureFacts } from '../outcome.js';
import {
  type AttemptContext,
  type AttemptPiece,
  AttemptStopped,
  Forward,
  type ResponseStart,
} from './piece.js';

/**
 * Sends a request again, once, on a new connection when its reused keep-alive connection closed
 * before any byte of its answer came back: the receiver closed an idle connection as the request
 * was sent (no `Keep-Alive: timeout=` told the sender when), so it never saw the request
 * (docs/delivery.md "Reused connections"). The dropped try's error goes no further: the next
 * pieces hear `onRequestRetry` with why it failed, then the new try's callbacks.
 */
export class FreshConnectionRetry extends Forward {
  #responded = false;
  #context: AttemptContext | undefined;
  #retried = false;

  constructor(
    next: AttemptPiece,
    /** `host[:port]`, as messages name the receiver. */
    readonly target: string,
    /** Dispatches `handler` again on a new connection of its own. */
    readonly dispatchFresh: (handler: AttemptPiece) => void,
  ) {
    super(next);
  }

  override onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void {
    this.#responded = false;
    this.#context = context;
    super.onRequestStart(controller, context);
  }

  override onResponseStart(...args: ResponseStart): void {
    this.#responded = true;
    super.onResponseStart(...args);
  }

  override onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    const firstTry = this.#neverReachedReceiver(error);
    if (firstTry === undefined) {
      super.onResponseError(controller, error);
      return;
    }
    this.#retried = true;
    this.#context = undefined;
    super.onRequestRetry(firstTry);
    // Dispatch after undici finished failing the first request.
    queueMicrotask(() => this.dispatchFresh(this));
  }

  /**
   * Why the try failed, when it is the first request written on a reused connection that closed
   * before any byte of its answer came back; undefined otherwise.
   */
  #neverReachedReceiver(error: Error): string | undefined {
    const request = this.#context?.connection;
    if (
      this.#retried ||
      this.#responded ||
      error instanceof AttemptStopped ||
      request === undefined ||
      request.index <= 1 ||
      request.use.requests !== request.index ||
      request.use.answerBytes !== 0
    ) {
      return undefined;
    }
    const result = classifyFailure({ ...failureFacts(error, 'headers', this.target), bodyBytes: 0 });
    return result.outcome === 'reset' ? result.message : undefined;
  }
}
