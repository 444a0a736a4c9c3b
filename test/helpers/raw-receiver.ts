import { createServer as createNetServer, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer, type TlsOptions } from 'node:tls';
import { atFileEnd } from './file-hooks.js';

/** One request as the raw receiver read it off the wire. */
export interface RawRequest {
  head: string;
  body: Buffer;
  /** 1 for the first request on its connection. */
  indexOnConnection: number;
  /** 1 for the first connection the receiver accepted. */
  connection: number;
}

/**
 * What the receiver does with each complete request: write bytes (exactly as given) and/or close.
 * `arrived` runs when the first bytes of a request arrive, before it is read whole; returning
 * `'close'` or `'reset'` ends the connection right there (the request is never read).
 */
export interface RawScript {
  arrived?(info: { indexOnConnection: number; connection: number }): 'close' | 'reset' | undefined;
  answer(socket: Socket, request: RawRequest): void;
}

export interface RawReceiver {
  url: string;
  /** Requests read whole, in arrival order. */
  requests: RawRequest[];
  /** Connections accepted so far. */
  connections: number;
  close(): Promise<void>;
}

const open = new Set<RawReceiver>();
// Once per file, not after each test: a test may run concurrently with others (`it.concurrent`), and
// closing every open receiver after one test would cut the others' off. A test that wants its
// receiver gone sooner closes it itself.
atFileEnd(async () => {
  const closing = [...open].map((r) => r.close());
  open.clear();
  await Promise.all(closing);
});

/** The plain answer of a receiver that acknowledges: 200, no Keep-Alive header. */
export const OK_200 = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok';

/**
 * A loopback HTTP/1.1 receiver on a raw socket (port 0), for answers no HTTP server library writes:
 * interim responses, duplicate headers, bodies cut short, connections closed as a request arrives.
 * Closed when its test file ends, or sooner by `close()`.
 */
export async function rawReceiver(script: RawScript, tls?: TlsOptions): Promise<RawReceiver> {
  const requests: RawRequest[] = [];
  const sockets = new Set<Socket>();
  let connections = 0;
  const onConnection = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    const connection = ++connections;
    let index = 0;
    let buffered = Buffer.alloc(0);
    let started = false;
    socket.on('data', (chunk: Buffer) => {
      if (!started) {
        started = true;
        const verdict = script.arrived?.({ indexOnConnection: index + 1, connection });
        if (verdict === 'close') return void socket.end(() => socket.destroy());
        if (verdict === 'reset') return void reset(socket);
      }
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = buffered.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const body = buffered.subarray(end + 4, end + 4 + length);
        buffered = buffered.subarray(end + 4 + length);
        started = buffered.length > 0;
        const request = { head, body, indexOnConnection: ++index, connection };
        requests.push(request);
        script.answer(socket, request);
      }
    });
  };
  const server: Server = tls ? createTlsServer(tls, onConnection) : createNetServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const receiver: RawReceiver = {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}/hook`,
    requests,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((resolve) => {
        open.delete(receiver);
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  open.add(receiver);
  return receiver;
}

/** A TCP reset; a TLS socket has no TCP handle of its own and is torn down without close_notify. */
function reset(socket: Socket): void {
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}
