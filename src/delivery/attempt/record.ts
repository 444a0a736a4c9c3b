import type { Dispatcher } from 'undici';
import { classifyFailure, failureFacts, type SendPhase, type SendResult, statusMessage } from '../outcome.js';
import { KeptBody, keptHeaders } from './caps.js';
import { type AttemptContext, type AttemptPiece, AttemptStopped } from './piece.js';

/**
 * The last piece of an attempt: turns the callbacks it hears into the attempt's SendResult and
 * resolves it once: a complete response is `http_status` (redirects named, never followed), a
 * piece's stop gives its own outcome, any other error is classified by FAILURE_TABLE (outcome.ts).
 * It keeps what the result shows: status, headers and body within their caps, where the attempt
 * was, and the duration.
 */
export class AttemptRecord implements AttemptPiece {
  readonly #started = performance.now();
  #phase: SendPhase = 'connect';
  #context: AttemptContext | undefined;
  #statusCode: number | undefined;
  #headers: Record<string, string> | undefined;
  #location: string | undefined;
  #declaredLength: string | undefined;
  readonly #body = new KeptBody();
  #bodyBytes = 0;
  /** Why the first try, on a reused connection, failed, once the attempt was retried on a new one. */
  #firstTry: string | undefined;
  #settled = false;

  constructor(
    /** `host[:port]`, as messages name the receiver. */
    readonly target: string,
    readonly resolve: (result: SendResult) => void,
  ) {}

  onRequestStart(_controller: Dispatcher.DispatchController, context: AttemptContext): void {
    this.#phase = 'headers';
    this.#context = context;
  }

  onRequestRetry(firstTry: string): void {
    this.#firstTry = firstTry;
    this.#phase = 'connect';
    this.#context = undefined;
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.#phase = 'body';
    this.#statusCode = statusCode;
    this.#headers = keptHeaders(headers);
    const location = headers.location;
    this.#location = Array.isArray(location) ? location[0] : location;
    const length = headers['content-length'];
    if (typeof length === 'string') this.#declaredLength = length;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.#bodyBytes += chunk.length;
    this.#body.push(chunk);
  }

  onResponseEnd(): void {
    const code = this.#statusCode ?? 0;
    const interim = this.#context?.connection?.use.interim ?? 0;
    const result: Omit<SendResult, 'durationMs'> = {
      outcome: 'http_status',
      statusCode: code,
      message:
        statusMessage(code, code >= 300 && code < 400 ? this.#location : undefined) +
        (interim > 0
          ? `; ${interim} interim (1xx) response${interim === 1 ? '' : 's'} before it ignored`
          : ''),
      responseBody: this.#body.text(),
    };
    // With one request per connection undici waits one event-loop turn (a setImmediate queued
    // after this callback) before it marks the connection free. Resolving after that turn lets the
    // next attempt (the one awaiting this) reuse the connection instead of opening another.
    this.#finish(result, (settle) => queueMicrotask(() => setImmediate(settle)));
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (err instanceof AttemptStopped) {
      const seen = { phase: this.#phase, statusCode: this.#statusCode, keptBytes: this.#body.bytes };
      this.#finish({
        outcome: err.outcome,
        ...(this.#statusCode === undefined ? {} : { statusCode: this.#statusCode }),
        message: err.describe(seen),
        ...(err.keepsBody ? { responseBody: this.#body.text() } : {}),
      });
      return;
    }
    const result = classifyFailure({
      ...failureFacts(err, this.#phase, this.target, this.#statusCode),
      bodyBytes: this.#bodyBytes,
      declaredLength: this.#declaredLength,
    });
    this.#finish(
      this.#firstTry === undefined
        ? result
        : {
            ...result,
            message: `${result.message} (on a new connection: the first try, on a reused connection, failed before any answer: ${this.#firstTry})`,
          },
    );
  }

  /** Settles once; `defer` postpones the resolve (not the duration, measured now). */
  #finish(result: Omit<SendResult, 'durationMs'>, defer?: (settle: () => void) => void): void {
    if (this.#settled) return;
    this.#settled = true;
    const done = {
      ...result,
      ...(this.#headers === undefined ? {} : { responseHeaders: this.#headers }),
      durationMs: Math.round(performance.now() - this.#started),
    } as SendResult;
    if (defer) defer(() => this.resolve(done));
    else this.resolve(done);
  }
}
