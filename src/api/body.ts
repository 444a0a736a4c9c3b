import type { IncomingMessage } from 'node:http';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { ApiRequestError, malformed } from './api-error.js';

/** Largest request body accepted, counted after decompression (chunked and gzip included). */
export const MAX_BODY_BYTES = 64 * 1024;

const utf8 = new TextDecoder('utf-8', { fatal: true });

function tooLarge(what: string): ApiRequestError {
  return new ApiRequestError(
    'payload_too_large',
    `Request body ${what} exceeds ${MAX_BODY_BYTES} bytes. A GetAccessToken request is a few hundred bytes; send only Username and Password.`,
  );
}

/** Reads the raw body bytes, refusing anything above MAX_BODY_BYTES without buffering it all. */
async function readRaw(c: Context): Promise<Buffer> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge(`(Content-Length ${declared})`);
  if (!incoming) {
    const buf = Buffer.from(await c.req.arrayBuffer());
    if (buf.length > MAX_BODY_BYTES) throw tooLarge('');
    return buf;
  }
  if (incoming.readableEnded) return Buffer.alloc(0);
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        incoming.off('data', onData);
        incoming.off('end', onEnd);
        reject(tooLarge('(chunked)'));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    incoming.on('data', onData);
    incoming.once('end', onEnd);
    incoming.once('error', (err) => reject(malformed(`The request body could not be read: ${err.message}.`)));
  });
}

/** Undoes Content-Encoding with the same cap after inflation (a gzip bomb stops at MAX_BODY_BYTES). */
function decode(raw: Buffer, encoding: string | undefined): Buffer {
  const enc = (encoding ?? 'identity').trim().toLowerCase();
  if (enc === '' || enc === 'identity' || raw.length === 0) return raw;
  const inflate =
    enc === 'gzip' || enc === 'x-gzip' ? gunzipSync : enc === 'deflate' ? inflateSync : undefined;
  if (!inflate) {
    throw new ApiRequestError(
      'unsupported_media_type',
      `Content-Encoding "${encoding}" is not supported. Accepted: gzip, deflate, identity.`,
    );
  }
  try {
    return inflate(raw, { maxOutputLength: MAX_BODY_BYTES });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge('after decompression');
    throw malformed(`The ${enc} body could not be decompressed: ${(err as Error).message}.`);
  }
}

/** The request body as text: capped, decompressed and strictly UTF-8 ('' when there is none). */
export async function readBodyText(c: Context): Promise<string> {
  const body = decode(await readRaw(c), c.req.header('content-encoding'));
  if (body.length === 0) return '';
  try {
    return utf8.decode(body);
  } catch {
    throw malformed('The request body is not valid UTF-8. Send UTF-8 text.');
  }
}

/**
 * Distinct Content-Type values whose media type is remembered. Clients send the same one or two
 * on every call; the bound keeps a client that varies it from growing the cache.
 */
const MAX_CACHED_CONTENT_TYPES = 64;
const mediaTypes = new Map<string, string>();

/** Lower-cased media type of a Content-Type header, and refuses charsets other than UTF-8. */
export function mediaType(contentType: string | undefined): string {
  if (!contentType) return '';
  const cached = mediaTypes.get(contentType);
  if (cached !== undefined) return cached;
  const type = parseMediaType(contentType);
  if (mediaTypes.size < MAX_CACHED_CONTENT_TYPES) mediaTypes.set(contentType, type);
  return type;
}

/** Splits a Content-Type once per distinct value; throws for a charset other than UTF-8. */
function parseMediaType(contentType: string): string {
  const [type = '', ...params] = contentType.split(';');
  for (const p of params) {
    const [k, v] = p.split('=').map((s) => s.trim().toLowerCase());
    if (k === 'charset' && v && !['utf-8', 'utf8', '"utf-8"', 'us-ascii'].includes(v)) {
      throw new ApiRequestError(
        'unsupported_media_type',
        `charset "${v}" is not supported. Send charset=utf-8.`,
      );
    }
  }
  return type.trim().toLowerCase();
}
