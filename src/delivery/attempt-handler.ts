import type { Dispatcher } from 'undici';
import type { ConnectionWatch, RequestOnConnection } from './connection-watch.js';
import { classifyFailure, failureFacts, type SendPhase, type SendResult, statusMessage } from './outcome.js';

/** Response bodies are read up to this many bytes and the rest discarded (product rule "Delivery rules"). */
export const RESPONSE_BODY_CAP_BYTES = 4096;
/**
 * A response body longer than this is never complete for the emulator: it stops reading, closes the
 * connection and records `invalid_response` (an endless body used to be drained until the deadline:
 * 334 MB in 30 s on loopback). Receivers answer a few bytes; 64 KiB leaves room for any real page.
 */
export const RESPONSE_READ_LIMIT_BYTES = 64 * 1024;
/** Response headers are kept up to this many bytes (names and values), like the body's cap. */
export const RESPONSE_HEADERS_CAP_BYTES = 4096;

/** The response headers as one record (repeated ones joined by ", "), within RESPONSE_HEADERS_CAP_BYTES. */
export function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  let bytes = 0;
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    bytes += name.length + value.length + 4;
    if (bytes > RESPONSE_HEADERS_CAP_BYTES) break;
    kept[name] = value;
  }
  return kept;
}

export interface AttemptHandlerOptions {
  /** `host[:port]`, as messages name the receiver. */
  target: string;
  timeoutMs: number;
  watch: ConnectionWatch;
  resolve: (result: SendResult) => void;
  /** Dispatches this handler again on a new connection (at most once per attempt). */
  retryOnFreshConnection?: (handler: AttemptHandler) => void;
}

/**
 * Follows one POST through undici's dispatch callbacks and resolves its SendResult once: on a
 * complete response, on an error, or when the one deadline passes (connect, TLS, headers, body).
 * Redirects are never followed. The one request sent again is a request whose reused keep-alive
 * connection closed before any byte of its answer came back: the receiver never saw it, so it is
 * retried once on a new connection, within the same deadline (docs/delivery.md "Reused connections").
 */
export class AttemptHandler implements Dispatcher.DispatchHandler {
  readonly #started = performance.now();
  readonly #timer: NodeJS.Timeout;
  readonly #o: AttemptHandlerOptions;
  #phase: SendPhase = 'connect';
  #statusCode: number | undefined;
  #headers: Record<string, string> | undefined;
  #location: string | undefined;
  #kept: Buffer[] = [];
  #keptBytes = 0;
  #bodyBytes = 0;
  #declaredLength: string | undefined;
  #controller: Dispatcher.DispatchController | undefined;
  #request: RequestOnConnection | undefined;
  /** Why the first try on a reused connection failed, once it was retried on a new one. */
  #firstTry: string | undefined;
  #settled = false;

  constructor(options: AttemptHandlerOptions) {
    this.#o = options;
    this.#timer = setTimeout(() => this.#timeout(), options.timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    // Called once a connection (TLS included) is ready, before the request is written. A request
    // that timed out while queued is aborted here, so it is never sent late.
    if (this.#settled) {
      controller.abort(new Error('deadline passed'));
      return;
    }
    this.#controller = controller;
    this.#phase = 'headers';
    this.#request = undefined;
    this.#o.watch.claimNextRequest((request) => {
      this.#request = request;
    });
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    if (this.#settled) return;
    this.#phase = 'body';
    this.#statusCode = statusCode;
    this.#headers = keptHeaders(headers);
    const location = headers.location;
    this.#location = Array.isArray(location) ? location[0] : location;
    const length = headers['content-length'];
    if (typeof length === 'string') this.#declaredLength = length;
    if (Array.isArray(length) && new Set(length.map((v) => v.trim())).size > 1) {
      // RFC 9112 §6.3: differing Content-Length values make the message length unknowable.
      this.#finish({
        outcome: 'invalid_response',
        statusCode,
        message: `invalid HTTP response: ${length.length} different Content-Length headers (${length.join(', ')}) (status ${statusCode})`,
      });
      controller.abort(new Error('invalid response'));
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#bodyBytes += chunk.length;
    if (this.#keptBytes < RESPONSE_BODY_CAP_BYTES) {
      const part = chunk.subarray(0, RESPONSE_BODY_CAP_BYTES - this.#keptBytes);
      this.#kept.push(part);
      this.#keptBytes += part.length;
    }
    if (this.#bodyBytes > RESPONSE_READ_LIMIT_BYTES) {
      this.#finish({
        outcome: 'invalid_response',
        statusCode: this.#statusCode,
        message: `response body longer than ${RESPONSE_READ_LIMIT_BYTES} bytes (status ${this.#statusCode}): stopped reading and closed the connection; the first ${this.#keptBytes} bytes are kept`,
        responseBody: this.#body(),
      });
      controller.abort(new Error('response body over the read limit'));
    }
  }

  onResponseEnd(): void {
    if (this.#settled) return;
    const code = this.#statusCode ?? 0;
    const interim = this.#request?.use.interim ?? 0;
    const result: Omit<SendResult, 'durationMs'> = {
      outcome: 'http_status',
      statusCode: code,
      message:
        statusMessage(code, code >= 300 && code < 400 ? this.#location : undefined) +
        (interim > 0
          ? `; ${interim} interim (1xx) response${interim === 1 ? '' : 's'} before it ignored`
          : ''),
      responseBody: this.#body(),
    };
    // With one request per connection undici waits one event-loop turn (a setImmediate queued
    // after this callback) before it marks the connection free. Resolving after that turn lets the
    // next attempt (the one awaiting this) reuse the connection instead of opening another.
    this.#finish(result, (settle) => queueMicrotask(() => setImmediate(settle)));
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.#settled) return;
    const result = classifyFailure({
      ...failureFacts(err, this.#phase, this.#o.target, this.#statusCode),
      bodyBytes: this.#bodyBytes,
      declaredLength: this.#declaredLength,
    });
    if (this.#neverReachedReceiver(result.outcome)) {
      this.#firstTry = result.message;
      this.#phase = 'connect';
      this.#controller = undefined;
      this.#request = undefined;
      const retry = this.#o.retryOnFreshConnection!;
      // Dispatch after undici finished failing the first request.
      queueMicrotask(() => retry(this));
      return;
    }
    this.#finish(
      this.#firstTry === undefined
        ? result
        : {
            ...result,
            message: `${result.message} (on a new connection: the first try, on a reused connection, failed before any answer: ${this.#firstTry})`,
          },
    );
  }

  /**
   * The first request on a reused connection that closed before any byte of its answer came back:
   * the receiver closed an idle connection as the request was sent (no `Keep-Alive: timeout=` told
   * the sender when), so the request never reached it.
   */
  #neverReachedReceiver(outcome: SendResult['outcome']): boolean {
    const request = this.#request;
    return (
      this.#firstTry === undefined &&
      this.#o.retryOnFreshConnection !== undefined &&
      this.#phase === 'headers' &&
      request !== undefined &&
      request.index > 1 &&
      request.use.requests === request.index &&
      request.use.answerBytes === 0 &&
      outcome === 'reset'
    );
  }

  #body(): string {
    return this.#keptBytes === 0 ? '' : Buffer.concat(this.#kept).toString('utf8');
  }

  #timeout(): void {
    const where =
      this.#phase === 'connect'
        ? 'while connecting'
        : this.#phase === 'headers'
          ? 'waiting for the response headers'
          : `reading the response body (status ${this.#statusCode}, ${this.#keptBytes} bytes kept)`;
    this.#finish({
      outcome: 'timeout',
      message: `no complete response within ${this.#o.timeoutMs} ms (${where})`,
      ...(this.#statusCode === undefined ? {} : { statusCode: this.#statusCode }),
    });
    // Destroys the connection; a request still waiting for one is aborted in onRequestStart.
    this.#controller?.abort(new Error('deadline passed'));
  }

  /** Settles once; `defer` postpones the resolve (not the duration, measured now). */
  #finish(result: Omit<SendResult, 'durationMs'>, defer?: (settle: () => void) => void): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    const done = {
      ...result,
      ...(this.#headers === undefined ? {} : { responseHeaders: this.#headers }),
      durationMs: Math.round(performance.now() - this.#started),
    } as SendResult;
    if (defer) defer(() => this.#o.resolve(done));
    else this.#o.resolve(done);
  }
}
