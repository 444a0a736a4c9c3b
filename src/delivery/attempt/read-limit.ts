import type { Dispatcher } from 'undici';
import { AttemptStopped, Forward } from './piece.js';

/**
 * A response body longer than this is never complete for the emulator: it stops reading, closes the
 * connection and records `invalid_response` (an endless body used to be drained until the deadline:
 * 334 MB in 30 s on loopback). Receivers answer a few bytes; 64 KiB leaves room for any real page.
 */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;

/**
 * Stops an attempt whose response body runs past RESPONSE_READ_LIMIT_BYTES: the chunk that crosses
 * the limit still goes on (the record keeps its first bytes), then the request is aborted, which
 * closes the connection.
 */
export class ReadLimit extends Forward {
  #bytes = 0;

  override onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    super.onResponseData(controller, chunk);
    this.#bytes += chunk.length;
    if (this.#bytes > RESPONSE_READ_LIMIT_BYTES) controller.abort(overReadLimit());
  }
}

function overReadLimit(): AttemptStopped {
  return new AttemptStopped(
    'invalid_response',
    (seen) =>
      `response body longer than ${RESPONSE_READ_LIMIT_BYTES} bytes (status ${seen.statusCode}): stopped reading and closed the connection; the first ${seen.keptBytes} bytes are kept`,
    true,
  );
}
