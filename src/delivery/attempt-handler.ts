import type { Dispatcher } from 'undici';
import { classifyError, type SendPhase, type SendResult, statusMessage } from './outcome.js';
import { asNodeError } from './undici-errors.js';

/** Response bodies are read up to this many bytes and the rest discarded (DESIGN "Delivery rules"). */
export const RESPONSE_BODY_CAP_BYTES = 4096;

/**
 * Follows one POST through undici's dispatch callbacks and resolves its SendResult once: on a
 * complete response, on an error, or when the one deadline passes (connect, TLS, headers, body).
 * Redirects are never followed: nothing here dispatches again.
 */
export class AttemptHandler implements Dispatcher.DispatchHandler {
  readonly #started = performance.now();
  readonly #timer: NodeJS.Timeout;
  #phase: SendPhase = 'connect';
  #statusCode: number | undefined;
  #location: string | undefined;
  #kept: Buffer[] = [];
  #keptBytes = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #settled = false;

  constructor(
    private readonly target: string,
    private readonly timeoutMs: number,
    private readonly resolve: (result: SendResult) => void,
  ) {
    this.#timer = setTimeout(() => this.#timeout(), timeoutMs);
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
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.#phase = 'body';
    this.#statusCode = statusCode;
    const location = headers.location;
    this.#location = Array.isArray(location) ? location[0] : location;
  }

  onResponseData(_controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // Past the cap the bytes are dropped at once: an endless body costs time, never memory.
    if (this.#keptBytes >= RESPONSE_BODY_CAP_BYTES) return;
    const part = chunk.subarray(0, RESPONSE_BODY_CAP_BYTES - this.#keptBytes);
    this.#kept.push(part);
    this.#keptBytes += part.length;
  }

  onResponseEnd(): void {
    const code = this.#statusCode ?? 0;
    const result: Omit<SendResult, 'durationMs'> = {
      outcome: 'http_status',
      statusCode: code,
      message: statusMessage(code, code >= 300 && code < 400 ? this.#location : undefined),
      responseBody: this.#keptBytes === 0 ? '' : Buffer.concat(this.#kept).toString('utf8'),
    };
    // With one request per connection undici waits one event-loop turn (a setImmediate queued
    // after this callback) before it marks the connection free. Resolving after that turn lets the
    // next attempt (the one awaiting this) reuse the connection instead of opening another.
    this.#finish(result, (settle) => queueMicrotask(() => setImmediate(settle)));
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.#settled) return;
    if ((err as NodeJS.ErrnoException).code === 'UND_ERR_INVALID_ARG') {
      // A request undici refuses to build (e.g. a header value with a control character): the
      // node:http sender threw here, and the outbox recorded it as this.
      this.#finish({ outcome: 'invalid_response', message: `could not send: ${err.message}` });
      return;
    }
    this.#finish(classifyError(asNodeError(err), this.#phase, this.target, this.#statusCode));
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
      message: `no complete response within ${this.timeoutMs} ms (${where})`,
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
    const done = { ...result, durationMs: Math.round(performance.now() - this.#started) } as SendResult;
    if (defer) defer(() => this.resolve(done));
    else this.resolve(done);
  }
}
