import { EventEmitter, once } from 'node:events';
import {
  createServer as createHttpServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import type { SecureVersion } from 'node:tls';
import { gunzipSync } from 'node:zlib';
import type { ReceiverBehaviour } from './behaviour.js';
import { respond } from './respond.js';

/** TLS material and protocol window of an HTTPS receiver. */
export interface ReceiverTlsOptions {
  certPem: string;
  keyPem: string;
  /** e.g. `TLSv1` for both to build a TLS 1.0-only receiver (then also set `ciphers`). */
  minVersion?: SecureVersion;
  maxVersion?: SecureVersion;
  /** OpenSSL cipher list; `DEFAULT@SECLEVEL=0` lets a TLS 1.0 receiver actually negotiate. */
  ciphers?: string;
}

export interface ReceiverOptions {
  /** Serve HTTPS with this certificate; plain HTTP when absent. */
  tls?: ReceiverTlsOptions;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Behaviour when the queue is empty and the script answers nothing (default: status 200). */
  defaultBehaviour?: ReceiverBehaviour;
  /** Consulted for each request when the queue is empty; `undefined` falls back to the default. */
  script?: (request: ReceivedRequest) => ReceiverBehaviour | undefined;
  /** Keep raw and decompressed bodies of recorded requests (default true; the bench turns it off). */
  keepBodies?: boolean;
}

/** One request as the receiver saw it. */
export interface ReceivedRequest {
  /** 1-based arrival order. */
  index: number;
  method: string;
  path: string;
  /** Lower-cased header names, as Node parses them. */
  headers: IncomingHttpHeaders;
  /** Bytes as received (empty when bodies are not kept). */
  rawBody: Buffer;
  rawLength: number;
  /** Body text after gunzip when `Content-Encoding: gzip`, else as received. */
  body: string;
  /** Why the body could not be decompressed, if it could not. */
  bodyError?: string;
  receivedAt: Date;
  /** Client port of the connection: equal ports on consecutive requests mean a reused keep-alive socket. */
  remotePort: number;
  behaviour: ReceiverBehaviour;
}

/** A receiver listening on loopback that misbehaves on command and records every request. */
export interface Receiver {
  /** Base URL, e.g. `https://127.0.0.1:40123` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly requests: readonly ReceivedRequest[];
  /** Behaviours for the next requests, used in order, one per request. */
  enqueue(...behaviours: ReceiverBehaviour[]): void;
  setDefault(behaviour: ReceiverBehaviour): void;
  setScript(script: ReceiverOptions['script'] | undefined): void;
  /** Resolves once at least `count` requests arrived; rejects after `timeoutMs`. */
  waitForRequests(count: number, timeoutMs?: number): Promise<ReceivedRequest[]>;
  /** Forgets recorded requests and queued behaviours. */
  clear(): void;
  /** Stops listening and destroys every open connection (hanging ones too). */
  close(): Promise<void>;
}

const DEFAULT_WAIT_MS = 5_000;

/** Starts a programmable receiver (HTTP, or HTTPS with `tls`) and resolves once it listens. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const host = options.host ?? '127.0.0.1';
  const keepBodies = options.keepBodies ?? true;
  const requests: ReceivedRequest[] = [];
  const queue: ReceiverBehaviour[] = [];
  const events = new EventEmitter();
  const sockets = new Set<Socket>();
  let fallback: ReceiverBehaviour = options.defaultBehaviour ?? { kind: 'status', status: 200 };
  let script = options.script;
  let count = 0;

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let length = 0;
    req.on('data', (c: Buffer) => {
      length += c.length;
      if (keepBodies) chunks.push(c);
    });
    req.on('error', () => {});
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const recorded: ReceivedRequest = {
        index: ++count,
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        rawBody: raw,
        rawLength: length,
        body: '',
        receivedAt: new Date(),
        remotePort: req.socket.remotePort ?? 0,
        behaviour: fallback,
      };
      if (keepBodies) decode(recorded);
      recorded.behaviour = queue.shift() ?? script?.(recorded) ?? fallback;
      requests.push(recorded);
      events.emit('request');
      respond(req, res, recorded.behaviour);
    });
  };

  const server: Server = options.tls
    ? createHttpsServer(
        {
          cert: options.tls.certPem,
          key: options.tls.keyPem,
          ...(options.tls.minVersion ? { minVersion: options.tls.minVersion } : {}),
          ...(options.tls.maxVersion ? { maxVersion: options.tls.maxVersion } : {}),
          ...(options.tls.ciphers ? { ciphers: options.tls.ciphers } : {}),
        },
        handle,
      )
    : createHttpServer(handle);
  // Failed handshakes are what some receivers exist to produce; they are not the receiver's errors.
  server.on('tlsClientError', () => {});
  server.on('clientError', (_err, socket) => socket.destroy());
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `${options.tls ? 'https' : 'http'}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  return {
    url,
    port,
    requests,
    enqueue: (...behaviours) => {
      queue.push(...behaviours);
    },
    setDefault: (behaviour) => {
      fallback = behaviour;
    },
    setScript: (next) => {
      script = next;
    },
    waitForRequests: (wanted, timeoutMs = DEFAULT_WAIT_MS) =>
      new Promise((resolve, reject) => {
        if (requests.length >= wanted) return resolve([...requests]);
        const onRequest = () => {
          if (requests.length < wanted) return;
          cleanup();
          resolve([...requests]);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`receiver got ${requests.length} of ${wanted} requests within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          events.off('request', onRequest);
        };
        events.on('request', onRequest);
      }),
    clear: () => {
      requests.length = 0;
      queue.length = 0;
      count = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
      }),
  };
}

function decode(recorded: ReceivedRequest): void {
  if (String(recorded.headers['content-encoding'] ?? '').toLowerCase() !== 'gzip') {
    recorded.body = recorded.rawBody.toString('utf8');
    return;
  }
  try {
    recorded.body = gunzipSync(recorded.rawBody).toString('utf8');
  } catch (err) {
    recorded.bodyError = `not valid gzip: ${(err as Error).message}`;
  }
}
