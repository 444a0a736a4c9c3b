import { Agent as HttpAgent, request as httpRequest } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Socket } from 'node:net';
import { rootCertificates } from 'node:tls';
import { classifyError, type SendPhase, type SendResult, statusMessage } from './outcome.js';

/** Response bodies are read up to this many bytes and the rest discarded (DESIGN "Delivery rules"). */
export const RESPONSE_BODY_CAP_BYTES = 4096;
/** Spec "Limits": TLS 1.2 or higher. */
export const MIN_TLS_VERSION = 'TLSv1.2';

/** One prepared POST: URL, exact headers, gzip body. Built once per notification, reused per attempt. */
export interface DeliveryRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

/** Sends one attempt and reports how it ended; never rejects. */
export interface Sender {
  send(request: DeliveryRequest): Promise<SendResult>;
  /** Destroys pooled connections. */
  close(): void;
}

export interface HttpSenderOptions {
  /** One deadline for connect, TLS handshake, response headers and the whole response body. */
  timeoutMs: number;
  /** Upper bound of open sockets per destination (keep-alive pool). */
  maxSockets: number;
  /** PEM CA certificates trusted in addition to the system roots (`--ca-file`). */
  extraCaPem?: string[];
}

/** A sender on node:http/node:https with keep-alive agents; redirects are never followed. */
export class HttpSender implements Sender {
  readonly #http: HttpAgent;
  #https: HttpsAgent;
  readonly #options: HttpSenderOptions;

  constructor(options: HttpSenderOptions) {
    this.#options = options;
    this.#http = new HttpAgent({
      keepAlive: true,
      maxSockets: options.maxSockets,
      maxTotalSockets: options.maxSockets,
    });
    this.#https = this.#httpsAgent(options.extraCaPem ?? []);
  }

  /** Sets the certificates trusted besides the system roots (the whole list) for later attempts. */
  trust(caPem: string[]): void {
    this.#https.destroy();
    this.#https = this.#httpsAgent(caPem);
  }

  #httpsAgent(extra: string[]): HttpsAgent {
    return new HttpsAgent({
      keepAlive: true,
      maxSockets: this.#options.maxSockets,
      maxTotalSockets: this.#options.maxSockets,
      minVersion: MIN_TLS_VERSION,
      rejectUnauthorized: true,
      ca: [...rootCertificates, ...extra],
    });
  }

  send(request: DeliveryRequest): Promise<SendResult> {
    return new Promise((resolve) => {
      const started = performance.now();
      const url = new URL(request.url);
      const isHttps = url.protocol === 'https:';
      const target = url.host;
      let phase: SendPhase = 'connect';
      let statusCode: number | undefined;
      let settled = false;
      const kept: Buffer[] = [];
      let keptBytes = 0;

      const finish = (result: Omit<SendResult, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...result, durationMs: Math.round(performance.now() - started) });
      };

      const options = {
        method: 'POST',
        headers: { ...request.headers },
        agent: isHttps ? this.#https : this.#http,
      };
      const req = (isHttps ? httpsRequest : httpRequest)(url, options, (res) => {
        phase = 'body';
        statusCode = res.statusCode;
        res.on('data', (chunk: Buffer) => {
          // Past the cap the bytes are dropped at once: an endless body costs time, never memory.
          if (keptBytes >= RESPONSE_BODY_CAP_BYTES) return;
          const part = chunk.subarray(0, RESPONSE_BODY_CAP_BYTES - keptBytes);
          kept.push(part);
          keptBytes += part.length;
        });
        res.on('end', () => {
          const code = statusCode ?? 0;
          const location = res.headers.location;
          finish({
            outcome: 'http_status',
            statusCode: code,
            message: statusMessage(code, code >= 300 && code < 400 ? location : undefined),
            responseBody: Buffer.concat(kept).toString('utf8'),
          });
        });
        res.on('error', (err) => finish(classifyError(err, phase, target, statusCode)));
      });
      req.on('socket', (socket: Socket) => {
        if (!socket.connecting) {
          phase = 'headers';
          return;
        }
        socket.once(isHttps ? 'secureConnect' : 'connect', () => {
          if (phase === 'connect') phase = 'headers';
        });
      });
      req.on('error', (err) => finish(classifyError(err, phase, target, statusCode)));

      const timer = setTimeout(() => {
        const where =
          phase === 'connect'
            ? 'while connecting'
            : phase === 'headers'
              ? 'waiting for the response headers'
              : `reading the response body (status ${statusCode}, ${keptBytes} bytes kept)`;
        finish({
          outcome: 'timeout',
          message: `no complete response within ${this.#options.timeoutMs} ms (${where})`,
          ...(statusCode === undefined ? {} : { statusCode }),
        });
        req.destroy();
      }, this.#options.timeoutMs);

      req.end(request.body);
    });
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
  }
}
