import type { Dispatcher } from 'undici';
import { ConnectionClaim } from './attempt/connection-claim.js';
import { Deadline } from './attempt/deadline.js';
import { FreshConnectionRetry } from './attempt/fresh-connection-retry.js';
import type { AttemptPiece } from './attempt/piece.js';
import { ReadLimit } from './attempt/read-limit.js';
import { AttemptRecord } from './attempt/record.js';
import type { ConnectionWatch } from './connection-watch.js';
import type { SendResult } from './outcome.js';

export { RESPONSE_BODY_CAP_BYTES } from './attempt/caps.js';
export { RESPONSE_READ_LIMIT_BYTES } from './attempt/read-limit.js';

export interface AttemptHandlerOptions {
  /** `host[:port]`, as messages name the receiver. */
  target: string;
  timeoutMs: number;
  /** Cancels the attempt: it ends at once as `interrupted` (Deadline). */
  signal?: AbortSignal | undefined;
  watch: ConnectionWatch;
  resolve: (result: SendResult) => void;
  /** Dispatches a handler again on a new connection (at most once per attempt). */
  retryOnFreshConnection: (handler: Dispatcher.DispatchHandler) => void;
}

/**
 * The handler that follows one POST through undici's dispatch callbacks, made of small pieces that
 * each wrap the next, the way undici's interceptors wrap a handler (docs/delivery.md "How an
 * attempt is followed"). In the order undici's callbacks pass through them:
 *
 * - `ConnectionClaim` (one per try): which request on which connection the try is;
 * - `FreshConnectionRetry`: a try lost on a reused connection before any answer byte goes again,
 *   once, on a new connection;
 * - `Deadline`: one deadline over everything after it, retry included, and the caller's cancel;
 * - `ReadLimit`: a body past RESPONSE_READ_LIMIT_BYTES stops the attempt;
 * - `AttemptRecord`: the SendResult, resolved once. Redirects are never followed.
 *
 * An answer with differing Content-Length values never reaches a piece: undici refuses its head
 * (`UND_ERR_RES_CONTENT_LENGTH_MISMATCH`, a row of FAILURE_TABLE; undici-canary.test.ts).
 */
export function attemptHandler(o: AttemptHandlerOptions): Dispatcher.DispatchHandler {
  const record = new AttemptRecord(o.target, o.resolve);
  const retrying = new FreshConnectionRetry(
    new Deadline(new ReadLimit(record), o.timeoutMs, o.signal),
    o.target,
    (again) => o.retryOnFreshConnection(onConnection(again, o.watch)),
  );
  return onConnection(retrying, o.watch);
}

function onConnection(next: AttemptPiece, watch: ConnectionWatch): AttemptPiece {
  return new ConnectionClaim(next, watch);
}
