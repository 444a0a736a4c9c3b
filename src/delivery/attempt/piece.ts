import type { Dispatcher } from 'undici';
import type { RequestOnConnection } from '../connection-watch.js';
import type { AttemptOutcome, SendPhase } from '../outcome.js';

/**
 * What the pieces of one attempt hand on with `onRequestStart` (undici's `context` argument): the
 * request's connection, known once its head is written (`ConnectionClaim`).
 */
export interface AttemptContext {
  connection?: RequestOnConnection | undefined;
}

/**
 * undici's DispatchHandler plus one callback of this emulator's: `onRequestRetry`, told downstream
 * when a try is dropped and the attempt starts over on a new connection (`FreshConnectionRetry`).
 */
export interface AttemptPiece extends Dispatcher.DispatchHandler {
  onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void;
  onResponseError(controller: Dispatcher.DispatchController, error: Error): void;
  /** `firstTry`: why the dropped try failed. */
  onRequestRetry?(firstTry: string): void;
}

/** The arguments of `onResponseStart`: the controller, the status, the headers, the reason phrase. */
export type ResponseStart = [
  controller: Dispatcher.DispatchController,
  statusCode: number,
  headers: Record<string, string | string[] | undefined>,
  statusMessage?: string,
];

/**
 * Hands every callback on to the next piece, unchanged: the base of each piece, as undici's own
 * handlers decorate the handler they wrap (docs/delivery.md "How an attempt is followed").
 */
export class Forward implements AttemptPiece {
  constructor(protected readonly next: AttemptPiece) {}

  onRequestStart(controller: Dispatcher.DispatchController, context: AttemptContext): void {
    this.next.onRequestStart(controller, context);
  }

  onResponseStart(...args: ResponseStart): void {
    this.next.onResponseStart?.(...args);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(
    controller: Dispatcher.DispatchController,
    trailers: Record<string, string | string[] | undefined>,
  ): void {
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Dispatcher.DispatchController, error: Error): void {
    this.next.onResponseError(controller, error);
  }

  onRequestRetry(firstTry: string): void {
    this.next.onRequestRetry?.(firstTry);
  }
}

/** What the record knows of an attempt when a piece stops it: what the stop's message names. */
export interface Seen {
  phase: SendPhase;
  statusCode: number | undefined;
  /** Response body bytes kept so far (RESPONSE_BODY_CAP_BYTES at most). */
  keptBytes: number;
}

/**
 * A piece ended the attempt on purpose (deadline, read limit, a malformed answer): the reason it
 * aborts undici's request with, and what the record makes of it. Not a network failure, so it is
 * never classified by FAILURE_TABLE.
 */
export class AttemptStopped extends Error {
  constructor(
    readonly outcome: AttemptOutcome,
    readonly describe: (seen: Seen) => string,
    /** Whether the result keeps the response body read so far. */
    readonly keepsBody = false,
  ) {
    super('attempt stopped by the emulator');
  }
}

/**
 * The controller a piece hands on when it ends an attempt that has no request on a connection
 * (still queued for one, or between a dropped try and its retry): nothing to pause or abort.
 */
export const NO_REQUEST: Dispatcher.DispatchController = {
  aborted: true,
  paused: false,
  reason: null,
  abort() {},
  pause() {},
  resume() {},
};
