import { attemptHandler, RESPONSE_BODY_CAP_BYTES } from './attempt-handler.js';
import { ConnectionWatch } from './connection-watch.js';
import { OriginPools } from './origin-pools.js';
import type { SendResult } from './outcome.js';

export { RESPONSE_BODY_CAP_BYTES };

/** Parsed destination URLs kept (credentials are few; the bound only keeps a misuse from growing). */
const TARGET_CACHE_LIMIT = 1024;

/** One prepared POST: URL, exact headers, gzip body. Built once per notification, reused per attempt. */
export interface DeliveryRequest {
  url: string;
  headers: Readonly<Record<string, string>>;
  body: Buffer;
}

/** Sends one attempt and reports how it ended; never rejects. */
export interface Sender {
  /**
   * `signal` cancels the attempt: it ends at once as `interrupted`, its message naming the signal's
   * reason (an attempt its caller no longer needs; the result is still data, never a rejection).
   */
  send(request: DeliveryRequest, signal?: AbortSignal): Promise<SendResult>;
  /** Destroys pooled connections. */
  close(): void;
}

export interface HttpSenderOptions {
  /** One deadline for connect, TLS handshake, response headers and the whole response body. */
  timeoutMs: number;
  /** Upper bound of open connections per scheme (keep-alive pools, all destinations together). */
  maxSockets: number;
  /** PEM CA certificates trusted in addition to the system roots (`--ca-file`). */
  extraCaPem?: string[];
}

interface Target {
  origin: string;
  path: string;
  https: boolean;
  /** `host[:port]`, as attempt messages name the receiver. */
  host: string;
}

/**
 * A sender on undici's dispatcher (keep-alive pools); redirects are never followed. undici instead
 * of node:http: a node:http request costs about twice the CPU on this path (decision 0012).
 */
export class HttpSender implements Sender {
  readonly #http: OriginPools;
  #https: OriginPools;
  readonly #options: HttpSenderOptions;
  readonly #targets = new Map<string, Target>();
  readonly #watch = new ConnectionWatch();

  constructor(options: HttpSenderOptions) {
    this.#options = options;
    this.#http = new OriginPools(options.maxSockets, { timeout: options.timeoutMs }, this.#watch);
    this.#https = this.#httpsPools(options.extraCaPem ?? []);
  }

  /** Sets the certificates trusted besides the system roots (the whole list) for later attempts. */
  trust(caPem: string[]): void {
    // Attempts already running finish on their connections; new ones connect with the new list.
    this.#https.close();
    this.#https = this.#httpsPools(caPem);
  }

  #httpsPools(extra: string[]): OriginPools {
    return new OriginPools(
      this.#options.maxSockets,
      {
        timeout: this.#options.timeoutMs,
        extraCa: extra,
        rejectUnauthorized: true,
      },
      this.#watch,
    );
  }

  send(request: DeliveryRequest, signal?: AbortSignal): Promise<SendResult> {
    return new Promise((resolve) => {
      const target = this.#target(request.url);
      const options = { method: 'POST', path: target.path, headers: request.headers, body: request.body };
      const pools = target.https ? this.#https : this.#http;
      // Before the handler starts the deadline: the first pool loads undici (src/delivery/undici.ts).
      const pool = pools.for(target.origin);
      const handler = attemptHandler({
        target: target.host,
        timeoutMs: this.#options.timeoutMs,
        signal,
        watch: this.#watch,
        resolve,
        // `reset: true` sends `Connection: close`: the retry's connection serves it alone.
        retryOnFreshConnection: (h) => pools.dispatchFresh(target.origin, { ...options, reset: true }, h),
      });
      pool.dispatch(options, handler);
    });
  }

  /** The parsed URL, cached: parsing it on every attempt was a visible share of the batch profile. */
  #target(url: string): Target {
    let target = this.#targets.get(url);
    if (target === undefined) {
      const u = new URL(url);
      target = {
        origin: u.origin,
        path: `${u.pathname}${u.search}`,
        https: u.protocol === 'https:',
        host: u.host,
      };
      if (this.#targets.size >= TARGET_CACHE_LIMIT) this.#targets.clear();
      this.#targets.set(url, target);
    }
    return target;
  }

  /** When (epoch ms) the receiver last completed a TLS handshake or sent an answer byte; 0 before any. */
  get signOfLifeAt(): number {
    return this.#watch.signOfLifeAt;
  }

  close(): void {
    this.#http.destroy();
    this.#https.destroy();
    this.#watch.endConnects();
  }
}
