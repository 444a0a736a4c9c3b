import { TextDecoder } from 'node:util';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { readRequestBody, TOO_LARGE } from '../incoming-body.js';
import { ApiRequestError, malformed } from './api-error.js';
import { noteRequestBody } from './exchange.js';

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
  const declared = Number(c.req.header('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) throw tooLarge(`(Content-Length ${declared})`);
  const body = await readRequestBody(c, MAX_BODY_BYTES).catch((err: Error) => {
    throw malformed(`The request body could not be read: ${err.message}.`);
  });
  if (body === TOO_LARGE) throw tooLarge('(counted as it was read)');
  return body;
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

/**
 * Decoders by label (the labels Node's TextDecoder knows: utf-16le, windows-1252, shift_jis…),
 * built on first use; bounded so a client cycling labels cannot grow it.
 */
const MAX_CACHED_DECODERS = 32;
const decoders = new Map<string, TextDecoder>([['utf-8', utf8]]);

function unsupportedCharset(label: string, where: string): ApiRequestError {
  return new ApiRequestError(
    'unsupported_media_type',
    `charset "${label}" (from the ${where}) is not supported. Send UTF-8 (or UTF-16 with a byte order mark, or ISO-8859-1) and declare it, e.g. Content-Type: …; charset=utf-8.`,
  );
}

/**
 * ISO-8859-1 as .NET reads it: every byte is the code point of the same number. (WHATWG, and so
 * TextDecoder, maps these labels to windows-1252, which differs in 0x80–0x9F.)
 */
const LATIN1_LABELS = new Set([
  'iso-8859-1',
  'iso8859-1',
  'iso_8859-1',
  'latin1',
  'l1',
  'iso-ir-100',
  'cp819',
]);

/** The decoder of a charset label; a label no decoder knows is a 415 whatever the bytes are. */
function decoderFor(label: string, where: string): TextDecoder | 'latin1' {
  if (LATIN1_LABELS.has(label)) return 'latin1';
  const cached = decoders.get(label);
  if (cached) return cached;
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label, { fatal: true });
  } catch {
    throw unsupportedCharset(label, where);
  }
  if (decoders.size < MAX_CACHED_DECODERS) decoders.set(label, decoder);
  return decoder;
}

/** The encoding a byte order mark announces. */
function byteOrderMark(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** `encoding` of an XML declaration in an ASCII-compatible document (XML 1.0 §4.3.3). */
const XML_DECLARATION = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/;

function declaredEncoding(body: Buffer): string | undefined {
  // XML 1.0 Appendix F: "<?" in UTF-16 without a byte order mark.
  if (body[0] === 0x3c && body[1] === 0x00 && body[2] === 0x3f && body[3] === 0x00) return 'utf-16le';
  if (body[0] === 0x00 && body[1] === 0x3c && body[2] === 0x00 && body[3] === 0x3f) return 'utf-16be';
  if (body[0] !== 0x3c || body[1] !== 0x3f) return undefined;
  return XML_DECLARATION.exec(body.toString('latin1', 0, 200))?.[1]?.toLowerCase();
}

/** A bare "utf-16" without a byte order mark: big-endian when the first byte is 0 ("\0<"), else little. */
function utf16Order(label: string, body: Buffer): string {
  if (label !== 'utf-16' && label !== 'unicode' && label !== 'ucs-2') return label;
  return body[0] === 0x00 && body[1] !== 0x00 ? 'utf-16be' : 'utf-16le';
}

/**
 * The request body as text ('' when there is none): capped, decompressed and decoded by its
 * declared charset. A byte order mark decides first, then the Content-Type charset, then (XML only,
 * `sniffXml`) the XML declaration's encoding, else UTF-8 (RFC 7303 §3.3, XML 1.0 Appendix F).
 * A charset no decoder knows is a 415/1002 before any byte is read; bytes invalid in it are 1000.
 */
export async function readBodyText(c: Context, sniffXml = false): Promise<string> {
  const headerLabel = contentTypeParts(c.req.header('content-type')).charset;
  // Refused before the bytes are read, so the answer never depends on them.
  if (headerLabel) decoderFor(headerLabel, 'Content-Type');
  const raw = await readRaw(c);
  const encoding = c.req.header('content-encoding');
  let text: string;
  try {
    text = decodeText(raw, encoding, headerLabel, sniffXml);
  } catch (err) {
    noteRequestBody(c, raw);
    throw err;
  }
  // Plain UTF-8 as sent: the journal keeps the text the call already made instead of a copy of the bytes.
  noteRequestBody(c, raw, encoding === undefined && text.length === raw.length ? text : undefined);
  return text;
}

function decodeText(
  raw: Buffer,
  encoding: string | undefined,
  headerLabel: string | undefined,
  sniffXml: boolean,
): string {
  const body = decode(raw, encoding);
  if (body.length === 0) return '';
  const bom = byteOrderMark(body);
  const declared = bom || headerLabel || !sniffXml ? undefined : declaredEncoding(body);
  const [label, where] = bom
    ? [bom, 'byte order mark']
    : headerLabel
      ? [utf16Order(headerLabel, body), 'Content-Type']
      : declared
        ? [utf16Order(declared, body), 'XML declaration']
        : ['utf-8', 'default'];
  const decoder = decoderFor(label, where);
  if (decoder === 'latin1') return body.toString('latin1');
  try {
    // The decoder drops a byte order mark of its own encoding.
    return decoder.decode(body);
  } catch {
    const name = decoder.encoding.toUpperCase();
    throw malformed(
      `The request body is not valid ${name} (charset from the ${where}). Send text in the charset you declare.`,
    );
  }
}

/**
 * Distinct Content-Type values whose parts are remembered. Clients send the same one or two on
 * every call; the bound keeps a client that varies it from growing the cache.
 */
const MAX_CACHED_CONTENT_TYPES = 64;
interface ContentTypeParts {
  /** Lower-cased media type ('' when there is no Content-Type). */
  type: string;
  /** Lower-cased, unquoted `charset` parameter (undefined when absent or empty). */
  charset: string | undefined;
}
const NO_CONTENT_TYPE: ContentTypeParts = { type: '', charset: undefined };
const contentTypes = new Map<string, ContentTypeParts>();

function contentTypeParts(contentType: string | undefined): ContentTypeParts {
  if (!contentType) return NO_CONTENT_TYPE;
  let parts = contentTypes.get(contentType);
  if (parts === undefined) {
    const charset = /;\s*charset\s*=\s*("[^"]*"|[^;\s]*)/i.exec(contentType)?.[1];
    parts = {
      type: (contentType.split(';')[0] ?? '').trim().toLowerCase(),
      charset: charset?.replace(/^"|"$/g, '').trim().toLowerCase() || undefined,
    };
    if (contentTypes.size < MAX_CACHED_CONTENT_TYPES) contentTypes.set(contentType, parts);
  }
  return parts;
}

/** Lower-cased media type of a Content-Type header (readBodyText reads its charset). */
export function mediaType(contentType: string | undefined): string {
  return contentTypeParts(contentType).type;
}
