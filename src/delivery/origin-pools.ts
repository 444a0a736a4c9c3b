import tls from 'node:tls';
import type { Client, Dispatcher, Pool } from 'undici';
import type { ConnectionWatch } from './connection-watch.js';
import { undici } from './undici.js';

/** Connection options handed to undici's connector (net.connect / tls.connect options). */
export interface ConnectOptions {
  /** Connect (and TLS handshake) limit in ms; the sender's own deadline fires first. */
  timeout: number;
  /** HTTPS: the CAs trusted besides the system roots, made into `senderTlsContext` at the first connection. */
  extraCa?: readonly string[];
  rejectUnauthorized?: boolean;
}

/**
 * One keep-alive undici Pool per origin, with at most `maxConnections` connections in all: when an
 * origin needs a connection and the total is at the cap, the pools of other origins with nothing
 * in flight are closed (their idle connections are what holds the cap). node:http's agent had
 * `maxTotalSockets` for this; undici's Agent only caps connections per origin.
 */
export class OriginPools {
  readonly #pools = new Map<string, Pool>();
  /** One-off clients of retries on a fresh connection, until they close. */
  readonly #fresh = new Set<Client>();
  #connector: ReturnType<ConnectionWatch['connector']> | undefined;

  constructor(
    private readonly maxConnections: number,
    private readonly connect: ConnectOptions,
    private readonly watch: ConnectionWatch,
  ) {}

  /** Made with the first connection, so undici is loaded only by a start that delivers (undici.ts). */
  #connect(): ReturnType<ConnectionWatch['connector']> {
    this.#connector ??= this.watch.connector(withTlsContext(this.connect));
    return this.#connector;
  }

  /** The pool for `origin` (e.g. `https://receiver.test:8443`), made room for under the cap. */
  for(origin: string): Pool {
    let pool = this.#pools.get(origin);
    if (pool === undefined) {
      pool = new (undici().Pool)(origin, {
        connections: this.maxConnections,
        pipelining: 1,
        // The sender's one deadline covers connect, headers and body; undici's own timers would
        // end attempts earlier (headers/body: 300 s) or with other messages, so they are off.
        headersTimeout: 0,
        bodyTimeout: 0,
        connect: this.#connect(),
      });
      this.#pools.set(origin, pool);
    }
    if (this.#pools.size > 1 && pool.stats.free === 0) this.#makeRoom(pool);
    return pool;
  }

  /**
   * Dispatches one request on a new connection of its own, closed once the request finished: the
   * retry of a request whose reused connection was closed under it (docs/delivery.md "Reused
   * connections"). It may exceed the cap by one connection for that moment.
   */
  dispatchFresh(
    origin: string,
    options: Dispatcher.DispatchOptions,
    handler: Dispatcher.DispatchHandler,
  ): void {
    const client = new (undici().Client)(origin, {
      pipelining: 1,
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: this.#connect(),
    });
    this.#fresh.add(client);
    client.dispatch(options, handler);
    // close() lets the request finish first, then closes the connection.
    void client.close().finally(() => this.#fresh.delete(client));
  }

  /** Total open connections across origins (for tests and diagnostics). */
  get connected(): number {
    let n = 0;
    for (const p of this.#pools.values()) n += p.stats.connected;
    return n;
  }

  #makeRoom(keep: Pool): void {
    if (this.connected < this.maxConnections) return;
    for (const [origin, p] of this.#pools) {
      if (p === keep) continue;
      const s = p.stats;
      if (s.running + s.pending + s.queued > 0) continue;
      this.#pools.delete(origin);
      void p.close();
    }
  }

  /** Closes every pool after its requests finished (new requests go to new pools). */
  close(): void {
    for (const p of this.#pools.values()) void p.close();
    this.#pools.clear();
  }

  /** Destroys every pool and its connections now. */
  destroy(): void {
    for (const p of this.#pools.values()) void p.destroy();
    this.#pools.clear();
    for (const c of this.#fresh) void c.destroy();
    this.#fresh.clear();
  }
}

/** Spec "Limits": TLS 1.2 or higher. */
const MIN_TLS_VERSION = 'TLSv1.2';

/**
 * The TLS context the sender connects with: the system roots and `extraCa`, TLS 1.2 or higher. One
 * for every connection: given `ca` alone, tls.connect makes a context per connection and parses the
 * ~140 system roots again, ~30 ms of CPU, over ten times the handshake (decision 0271).
 */
export function senderTlsContext(extraCa: readonly string[]): tls.SecureContext {
  return tls.createSecureContext({ ca: [...tls.rootCertificates, ...extraCa], minVersion: MIN_TLS_VERSION });
}

/** The options with the sender's TLS context when they are an HTTPS pool's. */
function withTlsContext({ extraCa, ...options }: ConnectOptions) {
  return extraCa === undefined ? options : { ...options, secureContext: senderTlsContext(extraCa) };
}
