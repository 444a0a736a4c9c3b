import type { IncomingMessage } from 'node:http';
import { constants, gunzipSync, inflateSync } from 'node:zlib';
import type { Context } from 'hono';
import { JOURNAL_ATTACHMENT, type JournalEntry } from '../auth/index.js';

/** Request and response bodies are kept up to this many bytes per journal entry (as attempts keep 4 KiB). */
export const EXCHANGE_BODY_CAP_BYTES = 4096;

/**
 * What is kept of a GetAccessToken call for the journal, by reference: nothing is copied or encoded
 * on the call's path (the hottest of the emulator); `exchangeOf` builds the readable view when asked.
 * Kept on the journal entry under a symbol, so it goes when the journal drops the entry.
 */
interface ExchangeParts {
  method: string;
  target: string;
  /** `rawHeaders` of the request ([name, value, name, value, …]) or its Headers. */
  requestHeaders: readonly string[] | Headers;
  /** The bytes as read (first 4 KiB), or the text itself when it was plain ASCII (no copy made). */
  requestBody: Buffer | string | undefined;
  /** Content-Length as sent, if any (else the kept body's size). */
  requestBytes: number | undefined;
  status: number;
  /** The headers the renderer gave the answer (a plain record, no copy), or the Response's. */
  responseHeaders: Readonly<Record<string, string>> | Headers;
  responseBody: string | undefined;
}

/** One GetAccessToken call as the client sent it and got it back (`GET /__admin/requests/:id`). */
export interface JournalExchange {
  request: {
    method: string;
    /** Path and query as sent. */
    target: string;
    headers: Array<[string, string]>;
    /** The body as text (decompressed when it was sent with Content-Encoding gzip or deflate), up to 4 KiB. */
    body: string;
    /** The body's size in bytes as received. */
    bodyBytes: number;
    /** True when the body was longer than the cap. */
    truncated: boolean;
  };
  response: {
    status: number;
    headers: Array<[string, string]>;
    body: string;
    truncated: boolean;
  };
}

// Where the parts wait until the call's answer is known: the request's own variables (`c.set`), a
// WeakMap keyed by the Response the renderer made, and the journal's attachment symbol on the entry,
// which the journal keeps for its newest JOURNAL_EXCHANGE_ENTRIES entries (src/auth/journal.ts). JSON
// never sees a symbol key, so admin answers and the data dir are unchanged.
const REQUEST_BODY = 'reportbo.exchange.requestBody';
const ENTRY = 'reportbo.exchange.entry';

type Rendered = { body: string; headers: Readonly<Record<string, string>> };
const rendered = new WeakMap<Response, Rendered>();
type WithParts = JournalEntry & { [JOURNAL_ATTACHMENT]?: ExchangeParts };

/**
 * Remembers the request body as read (before decompression): `text` when the caller decoded plain
 * ASCII bytes to it (one character a byte: kept as is, nothing copied), else the first 4 KiB of the
 * bytes copied: a chunk read from a socket can be a view of a much larger buffer, which a reference
 * would keep alive.
 */
export function noteRequestBody(c: Context, raw: Buffer, text?: string): void {
  if (raw.length === 0) return;
  if (text !== undefined && raw.length <= EXCHANGE_BODY_CAP_BYTES) c.set(REQUEST_BODY, text);
  else c.set(REQUEST_BODY, Buffer.from(raw.subarray(0, EXCHANGE_BODY_CAP_BYTES)));
}

/** Remembers the journal entry a call wrote. */
export function noteJournalEntry(c: Context, entry: JournalEntry): void {
  c.set(ENTRY, entry);
}

/** A text Response whose body the journal can show later without reading the stream. */
export function textResponse(
  body: string,
  init: ResponseInit & { headers: Record<string, string> },
): Response {
  const res = new Response(body, init);
  rendered.set(res, { body, headers: init.headers });
  return res;
}

/** Keeps, beside the call's journal entry, references to its request and its answer. */
export function keepExchange(c: Context, res: Response): void {
  const entry = c.get(ENTRY) as WithParts | undefined;
  if (!entry) return;
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const requestBody = c.get(REQUEST_BODY) as Buffer | string | undefined;
  const made = rendered.get(res);
  const length = c.req.header('content-length');
  entry[JOURNAL_ATTACHMENT] = {
    method: c.req.method,
    target: incoming?.url ?? pathAndQuery(c.req.url),
    requestHeaders: incoming?.rawHeaders ?? c.req.raw.headers,
    requestBody,
    requestBytes: length === undefined ? undefined : Number(length),
    status: res.status,
    responseHeaders: made?.headers ?? res.headers,
    responseBody: made?.body,
  };
}

function pathAndQuery(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  return start < 0 ? '/' : url.slice(start);
}

function capped(text: string): { body: string; truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= EXCHANGE_BODY_CAP_BYTES) return { body: text, truncated: false };
  return { body: bytes.subarray(0, EXCHANGE_BODY_CAP_BYTES).toString('utf8'), truncated: true };
}

function pairs(
  headers: readonly string[] | Headers | Readonly<Record<string, string>>,
): Array<[string, string]> {
  if (headers instanceof Headers) return [...headers];
  if (!Array.isArray(headers)) return Object.entries(headers);
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < headers.length; i += 2) out.push([headers[i]!, headers[i + 1]!]);
  return out;
}

/** The answer's headers; the server adds Content-Length (and Date, Connection), which a renderer never sets. */
function responseHeaders(p: ExchangeParts): Array<[string, string]> {
  const headers = pairs(p.responseHeaders);
  if (p.responseBody !== undefined && !headers.some(([name]) => name.toLowerCase() === 'content-length'))
    headers.push(['Content-Length', String(Buffer.byteLength(p.responseBody))]);
  return headers;
}

function requestText(raw: Buffer | string | undefined, headers: Array<[string, string]>): string {
  if (!raw || raw.length === 0) return '';
  if (typeof raw === 'string') return raw;
  const encoding = headers
    .find(([name]) => name.toLowerCase() === 'content-encoding')?.[1]
    .trim()
    .toLowerCase();
  // A body over the cap was kept cut short: a sync flush decodes what its first bytes hold.
  const options = { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: 64 * 1024 };
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return gunzipSync(raw, options).toString('utf8');
    if (encoding === 'deflate') return inflateSync(raw, options).toString('utf8');
  } catch {
    return `(could not be decompressed as ${encoding}; ${raw.length} bytes)`;
  }
  return raw.toString('utf8');
}

/** The call as it was, or undefined when nothing was kept (an entry recorded outside the HTTP app). */
export function exchangeOf(entry: JournalEntry): JournalExchange | undefined {
  const p = (entry as WithParts)[JOURNAL_ATTACHMENT];
  if (!p) return undefined;
  const requestHeaders = pairs(p.requestHeaders);
  const request = capped(requestText(p.requestBody, requestHeaders));
  const requestBytes = p.requestBytes ?? p.requestBody?.length ?? 0;
  if (requestBytes > EXCHANGE_BODY_CAP_BYTES) request.truncated = true;
  const response = capped(p.responseBody ?? '');
  return {
    request: {
      method: p.method,
      target: p.target,
      headers: requestHeaders,
      body: request.body,
      bodyBytes: requestBytes,
      truncated: request.truncated,
    },
    response: { status: p.status, headers: responseHeaders(p), ...response },
  };
}
