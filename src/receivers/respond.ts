import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ReceiverBehaviour } from './behaviour.js';

/** Time between sending headers and resetting, so the client has read the headers first. */
export const RESET_AFTER_HEADERS_DELAY_MS = 50;
/** Size of each chunk of an endless body. */
export const ENDLESS_CHUNK_BYTES = 16 * 1024;
/** The body length a reset-after-headers response promises but never sends. */
const PROMISED_BODY_BYTES = 1_000;

/** Carries out one behaviour on a request whose body was already read. */
export function respond(req: IncomingMessage, res: ServerResponse, behaviour: ReceiverBehaviour): void {
  switch (behaviour.kind) {
    case 'status':
      res.writeHead(behaviour.status, { 'content-type': 'text/plain', ...behaviour.headers });
      res.end(behaviour.body ?? '');
      return;
    case 'hang':
      // Nothing: the socket stays open until the client gives up or the receiver closes.
      return;
    case 'slow': {
      const timer = setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(behaviour.status ?? 200, { 'content-type': 'text/plain' });
        res.end('slow answer');
      }, behaviour.delayMs);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    case 'reset-before-headers':
      reset(req.socket);
      return;
    case 'reset-after-headers': {
      res.writeHead(behaviour.status ?? 200, {
        'content-type': 'text/plain',
        'content-length': String(PROMISED_BODY_BYTES),
      });
      res.write('partial');
      const timer = setTimeout(() => reset(req.socket), RESET_AFTER_HEADERS_DELAY_MS);
      res.once('close', () => clearTimeout(timer));
      return;
    }
    case 'endless-body':
      streamForever(res, behaviour.status ?? 200);
      return;
    case 'redirect':
      res.writeHead(behaviour.status ?? 302, { location: behaviour.location, 'content-type': 'text/plain' });
      res.end(`moved to ${behaviour.location}`);
      return;
  }
}

/**
 * A TCP reset (RST), not a graceful close: what a crashing or filtering receiver looks like.
 * A TLS socket has no TCP handle of its own, so `resetAndDestroy` throws ERR_INVALID_HANDLE_TYPE
 * there; it is then torn down without close_notify, which clients see as a reset as well.
 */
function reset(socket: Socket): void {
  if (socket.destroyed) return;
  try {
    socket.resetAndDestroy();
  } catch {
    socket.destroy();
  }
}

function streamForever(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'text/plain' });
  const chunk = Buffer.alloc(ENDLESS_CHUNK_BYTES, 'x');
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  const pump = () => {
    // Respect back-pressure so the receiver itself never buffers without bound.
    while (!closed && res.write(chunk)) {}
    if (!closed) res.once('drain', pump);
  };
  pump();
}
