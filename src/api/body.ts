import { TextDecoder } from 'node:util';
import { gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { readRequestBody, TOO_LARGE } from '../incoming-body.js';
import { ApiRequestError, malformed, xmlError } from './api-error.js';
import { noteRequestBody } from './exchange.js';

/** Largest request body accepted, counted after decompression (chunked and gzip included). */
export const MAX_BODY_BYTES = 64 * 1024;

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

/** How a body's bytes become text: 'strict' refuses bytes invalid in the charset, 'replace' puts U+FFFD for them. */
type Invalid = 'strict' | 'replace';

/** A charset the emulator decodes, by the name an error message gives it. */
interface Charset {
  name: string;
  /** The text of `bytes`; with 'strict', throws on bytes invalid in the charset. */
  decode(bytes: Buffer, invalid: Invalid): string;
}

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
  'ibm819',
  'iso88591',
  'iso_8859-1:1987',
  'csisolatin1',
]);
const LATIN1: Charset = { name: 'ISO-8859-1', decode: (bytes) => bytes.toString('latin1') };

/** US-ASCII as .NET's ASCIIEncoding reads it: a byte above 0x7F is "?" (WHATWG reads it as windows-1252). */
const ASCII_LABELS = new Set(['us-ascii', 'ascii', 'ansi_x3.4-1968', 'iso-ir-6', 'us']);
const ASCII: Charset = {
  name: 'US-ASCII',
  decode(bytes, invalid) {
    const i = bytes.findIndex((b) => b > 0x7f);
    if (i < 0) return bytes.toString('latin1');
    if (invalid === 'strict') throw new RangeError('a byte above 0x7F');
    return bytes.toString('latin1').replace(/[\u0080-\u00ff]/g, '?');
  },
};

/**
 * windows-1252's 0x80–0x9F (WHATWG Encoding, as .NET's code page 1252 maps them; the five bytes
 * it leaves undefined stay the C1 code point of the same number). Decoded here, not by TextDecoder:
 * Node 20's TextDecoder('windows-1252') reads these bytes as ISO-8859-1, so "€" (0x80) became U+0080.
 */
const CP1252_HIGH = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';
const WINDOWS_1252: Charset = {
  name: 'WINDOWS-1252',
  decode: (bytes) =>
    bytes
      .toString('latin1')
      .replace(/[\u0080-\u009f]/g, (ch) => CP1252_HIGH[ch.charCodeAt(0) - 0x80] as string),
};

/** UTF-32 as .NET's UTF32Encoding reads it (TextDecoder has no UTF-32); little-endian unless named BE. */
function utf32(littleEndian: boolean): Charset {
  return {
    name: littleEndian ? 'UTF-32LE' : 'UTF-32BE',
    decode(bytes, invalid) {
      let out = '';
      for (let i = 0; i < bytes.length; i += 4) {
        const cp =
          i + 4 <= bytes.length ? (littleEndian ? bytes.readUInt32LE(i) : bytes.readUInt32BE(i)) : -1;
        if (cp < 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
          if (invalid === 'strict') throw new RangeError(`invalid code unit at byte ${i}`);
          out += '\ufffd';
        } else {
          out += String.fromCodePoint(cp);
        }
      }
      // The decoder drops a byte order mark of its own encoding, as TextDecoder does.
      return out.startsWith('\ufeff') ? out.slice(1) : out;
    },
  };
}
const UTF32_LABELS: Record<string, Charset> = {
  'utf-32': utf32(true),
  'utf-32le': utf32(true),
  'utf-32be': utf32(false),
  'ucs-4': utf32(true),
};

/** A charset TextDecoder knows (utf-8, utf-16le/be, the other single-byte and CJK encodings). */
function textDecoderCharset(label: string): Charset | undefined {
  let strict: TextDecoder;
  let replace: TextDecoder;
  try {
    strict = new TextDecoder(label, { fatal: true });
    replace = new TextDecoder(label);
  } catch {
    return undefined;
  }
  if (strict.encoding === 'windows-1252') return WINDOWS_1252;
  // The decoder drops a byte order mark of its own encoding.
  return {
    name: strict.encoding.toUpperCase(),
    decode: (bytes, invalid) => (invalid === 'strict' ? strict : replace).decode(bytes),
  };
}

/**
 * Charsets by label (the labels Node's TextDecoder knows, with .NET's readings of ISO-8859-1,
 * US-ASCII and windows-1252, and UTF-32), built on first use; bounded so a client cycling labels
 * cannot grow it.
 */
const MAX_CACHED_CHARSETS = 32;
const charsets = new Map<string, Charset>();

/** The charset of a label; a label no decoder knows is a 415/1002 whatever the bytes are. */
function charsetFor(label: string, where: string): Charset {
  const cached = charsets.get(label);
  if (cached) return cached;
  const charset = LATIN1_LABELS.has(label)
    ? LATIN1
    : ASCII_LABELS.has(label)
      ? ASCII
      : (UTF32_LABELS[label] ?? textDecoderCharset(label));
  if (!charset) throw unsupportedCharset(label, where);
  if (charsets.size < MAX_CACHED_CHARSETS) charsets.set(label, charset);
  return charset;
}

/** The encoding a byte order mark announces (UTF-32 LE first: its mark begins with UTF-16 LE's). */
function byteOrderMark(body: Buffer): string | undefined {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xff && body[1] === 0xfe && body[2] === 0 && body[3] === 0) return 'utf-32le';
  if (body[0] === 0 && body[1] === 0 && body[2] === 0xfe && body[3] === 0xff) return 'utf-32be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  return undefined;
}

/** `encoding` of an XML declaration in an ASCII-compatible document (XML 1.0 §4.3.3). */
const XML_DECLARATION = /^<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][A-Za-z0-9._-]*)["']/;

function declaredEncoding(body: Buffer): string | undefined {
  // XML 1.0 Appendix F: "<" in UTF-32 or UTF-16 without a byte order mark.
  const head = body.subarray(0, 4).toString('hex');
  if (head === '3c000000') return 'utf-32le';
  if (head === '0000003c') return 'utf-32be';
  if (head === '3c003f00') return 'utf-16le';
  if (head === '003c003f') return 'utf-16be';
  if (body[0] !== 0x3c || body[1] !== 0x3f) return undefined;
  return XML_DECLARATION.exec(body.toString('latin1', 0, 200))?.[1]?.toLowerCase();
}

/** UTF-16 named without an order is little-endian, as .NET's Encoding.GetEncoding("utf-16") reads it. */
const UTF16_LABELS = new Set(['utf-16', 'unicode', 'ucs-2', 'csunicode', 'iso-10646-ucs-2', 'unicodefeff']);
const withOrder = (label: string): string => (UTF16_LABELS.has(label) ? 'utf-16le' : label);

/** What reading a body gave: its text and the leniencies a journal entry names. */
export interface BodyText {
  text: string;
  warnings: string[];
}

/**
 * The request body as text ('' when there is none): capped, decompressed and decoded by its
 * declared charset. A byte order mark decides first, then the Content-Type charset, then (XML only,
 * `sniffXml`) the XML declaration's encoding, else UTF-8 (RFC 7303 §3.3, XML 1.0 Appendix F).
 * A charset no decoder knows is a 415/1002 before any byte is read; bytes invalid in it are 1000.
 */
export async function readBodyText(c: Context, sniffXml = false): Promise<string> {
  return (await readBody(c, sniffXml, 'strict')).text;
}

/**
 * A SOAP body as ASMX reads it (SoapServerProtocol.GetReaderForMessage): with a charset from the
 * Content-Type or a byte order mark, .NET's StreamReader replaces invalid bytes with U+FFFD and
 * carries on (a warning says so); without one, XmlTextReader reads the bytes itself and invalid
 * UTF-8 is an XmlException (a 400, see BodilessError).
 */
export function readSoapBody(c: Context): Promise<BodyText> {
  return readBody(c, true, 'replace');
}

/**
 * ASMX reads `text/xml` with no charset as US-ASCII (RequestResponseUtils.GetEncoding answers
 * ASCIIEncoding), so the service would see "?" for each byte above 0x7F. The emulator reads such a
 * body by its XML declaration or as UTF-8 (product rule "SOAP as ASMX answers it", D10), and
 * says so: the client should declare its charset.
 */
const TEXT_XML_UNDECLARED =
  'text_xml_without_charset: non-ASCII bytes in a text/xml body with no charset parameter: ASMX reads such a body as US-ASCII ("?" for each of them); declare charset=utf-8';

async function readBody(c: Context, sniffXml: boolean, invalid: Invalid): Promise<BodyText> {
  const headerLabel = contentTypeParts(c.req.header('content-type')).charset;
  // Refused before the bytes are read, so the answer never depends on them.
  if (headerLabel) charsetFor(withOrder(headerLabel), 'Content-Type');
  const raw = await readRaw(c);
  const encoding = c.req.header('content-encoding');
  let read: BodyText;
  try {
    const body = decode(raw, encoding);
    read = decodeText(body, headerLabel, sniffXml, invalid);
    const textXml =
      invalid === 'replace' && contentTypeParts(c.req.header('content-type')).type === 'text/xml';
    if (textXml && !headerLabel && byteOrderMark(body) === undefined && body.some((b) => b > 0x7f)) {
      read.warnings.push(TEXT_XML_UNDECLARED);
    }
  } catch (err) {
    noteRequestBody(c, raw);
    throw err;
  }
  // Plain UTF-8 as sent: the journal keeps the text the call already made instead of a copy of the bytes.
  noteRequestBody(c, raw, encoding === undefined && read.text.length === raw.length ? read.text : undefined);
  return read;
}

function decodeText(
  body: Buffer,
  headerLabel: string | undefined,
  sniffXml: boolean,
  invalid: Invalid,
): BodyText {
  const warnings: string[] = [];
  if (body.length === 0) return { text: '', warnings };
  const bom = byteOrderMark(body);
  const declared = bom || headerLabel || !sniffXml ? undefined : declaredEncoding(body);
  const [label, where] = bom
    ? [bom, 'byte order mark']
    : headerLabel
      ? [withOrder(headerLabel), 'Content-Type']
      : declared
        ? [withOrder(declared), 'XML declaration']
        : ['utf-8', 'default'];
  const charset = charsetFor(label, where);
  // Only a reader given an encoding (a charset or a byte order mark) replaces; XmlTextReader refuses.
  const mode: Invalid = invalid === 'replace' && (bom || headerLabel) ? 'replace' : 'strict';
  try {
    return { text: charset.decode(body, 'strict'), warnings };
  } catch {
    const message = `The request body is not valid ${charset.name} (charset from the ${where})`;
    if (mode === 'strict') {
      if (invalid === 'replace')
        throw xmlError(`${message}: the XML reader cannot read it. Send text in the charset you declare.`);
      throw malformed(`${message}. Send text in the charset you declare.`);
    }
    warnings.push(
      `invalid_bytes_replaced: ${message}; each invalid sequence was read as U+FFFD, as .NET's decoder does`,
    );
    return { text: charset.decode(body, 'replace'), warnings };
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
