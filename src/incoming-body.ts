import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/**
 * The Node request behind `c` when @hono/node-server serves it (`c.env.incoming`); undefined when
 * the app is called with a fetch `Request` (`app.request()`, `startEmulator().fetch`).
 */
function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/** What `readIncoming` answers when the body passed its limit. */
export const TOO_LARGE = Symbol('too large');

/**
 * A request body read straight from its socket, refused once it passes `max` bytes (what was read is
 * dropped and no more is kept). Reading it here rather than through `c.req.raw` builds no fetch
 * `Request`: @hono/node-server builds one with an AbortSignal, which a fetch `Request` registers in a
 * FinalizationRegistry, and V8's young-generation collection keeps such objects alive, so every
 * request's objects were promoted to the old space and left it fragmented (decision 0159).
 */
function readIncoming(incoming: IncomingMessage, max: number): Promise<Buffer | typeof TOO_LARGE> {
  if (incoming.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        stop();
        chunks.length = 0;
        resolve(TOO_LARGE);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      stop();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      stop();
      reject(err);
    };
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', onError);
  });
}

/**
 * A fetch `Request`'s body stream read with the same limit, counted as it is read: for an app called
 * without a socket (`app.request()`, `startEmulator().fetch`). No body reads as empty.
 */
async function readStream(
  body: ReadableStream<Uint8Array> | null,
  max: number,
): Promise<Buffer | typeof TOO_LARGE> {
  if (body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, size);
}

/**
 * The body of the request behind `c`, refused once it passes `max` bytes: from its socket when
 * @hono/node-server serves it (`readIncoming`), else from the fetch `Request` the app was called
 * with (`readStream`). The provider API's reader and the admin guard both read bodies here.
 */
export function readRequestBody(c: Context, max: number): Promise<Buffer | typeof TOO_LARGE> {
  const incoming = incomingOf(c);
  return incoming ? readIncoming(incoming, max) : readStream(c.req.raw.body, max);
}
