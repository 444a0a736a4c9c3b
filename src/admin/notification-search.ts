import { gunzipSync } from 'node:zlib';
import { concatBodies } from '../contract/index.js';
import type { NotificationRecord } from '../delivery/index.js';
import { InputError } from '../errors.js';

/** The longest `q` accepted, and the most terms in it. */
export const MAX_SEARCH_LENGTH = 500;
export const MAX_SEARCH_TERMS = 16;

/** The names a term can start with that are not a path into the body. */
const ATTEMPT_FIELD = 'status';
const STATUS_WORDS = ['1xx', '2xx', '3xx', '4xx', '5xx', 'network'] as const;

/** One condition of a search: `text` (lower case) found in a value, under `path` when given. */
interface ValueTerm {
  kind: 'value';
  /** Lower-case key path the value must sit under (its last keys; array indices skipped), or null: anywhere. */
  path: string[] | null;
  text: string;
  /** The same text as it appears inside a JSON string (quotes and control characters escaped), lower case. */
  escaped: string;
  /** The filter bits of `escaped`'s trigrams (a body whose filter lacks one cannot hold it). */
  bits: readonly number[];
}

/** `status:500`, `status:5xx`, `status:network`: an attempt answered that (or got no status line). */
interface StatusTerm {
  kind: 'status';
  status: number | (typeof STATUS_WORDS)[number];
}

type Term = ValueTerm | StatusTerm;

/** A parsed `q`: every term must hold (AND). */
export interface NotificationSearch {
  terms: readonly Term[];
}

/** Splits `q` into words; double quotes keep spaces ("Van der Berg", `Pax.LastName:"Van der"`). */
function words(q: string): string[] {
  const out: string[] = [];
  for (const m of q.matchAll(/(?:[^\s"]+|"[^"]*"?)+/g)) out.push(m[0].replaceAll('"', ''));
  return out.filter((w) => w.length > 0);
}

/**
 * Reads the search language of `q` (docs/admin-api.md "Searching notifications"):
 * - `Lubowitz`: a value of the decoded body (never a key name) contains it, or the notification's id,
 *   BookingNumber, filename or credential id does; any case;
 * - `Pax.LastName:Lubowitz` / `LastName:lubo`: a value under that key path (its last keys, any case)
 *   contains it;
 * - `status:500`, `status:5xx`, `status:network`: an attempt got that answer;
 * - several terms: all of them hold.
 */
export function parseSearch(q: string): NotificationSearch | null {
  const text = q.trim();
  if (!text) return null;
  if (text.length > MAX_SEARCH_LENGTH) {
    throw new InputError('invalid_query', `q: at most ${MAX_SEARCH_LENGTH} characters, got ${text.length}.`, {
      path: 'q',
    });
  }
  const parts = words(text);
  if (parts.length > MAX_SEARCH_TERMS) {
    throw new InputError('invalid_query', `q: at most ${MAX_SEARCH_TERMS} terms, got ${parts.length}.`, {
      path: 'q',
    });
  }
  const terms: Term[] = [];
  for (const part of parts) {
    const colon = part.indexOf(':');
    // A colon inside a value (a time, `10:55`) is a plain word: a field name is letters, digits, dots.
    const field = colon > 0 && /^[A-Za-z][\w.]*$/.test(part.slice(0, colon)) ? part.slice(0, colon) : null;
    const value = (field === null ? part : part.slice(colon + 1)).toLowerCase();
    if (field?.toLowerCase() === ATTEMPT_FIELD) {
      terms.push({ kind: 'status', status: statusOf(value) });
      continue;
    }
    if (!value) continue; // `LastName:` alone: nothing to look for yet (typed half-way)
    const escaped = JSON.stringify(value).slice(1, -1);
    terms.push({
      kind: 'value',
      path: field === null ? null : field.toLowerCase().split('.').filter(Boolean),
      text: value,
      escaped,
      bits: termBits(escaped),
    });
  }
  return terms.length ? { terms } : null;
}

function statusOf(value: string): StatusTerm['status'] {
  if ((STATUS_WORDS as readonly string[]).includes(value)) return value as (typeof STATUS_WORDS)[number];
  if (/^[1-5]\d\d$/.test(value)) return Number(value);
  throw new InputError(
    'invalid_query',
    `q: status:${value} is neither an HTTP status (100–599) nor one of ${STATUS_WORDS.join(', ')}.`,
    { path: 'q', accepted: ['status:500', ...STATUS_WORDS.map((w) => `status:${w}`)] },
  );
}

function statusHolds(n: NotificationRecord, status: StatusTerm['status']): boolean {
  return n.attempts.some((a) => {
    const code = a.statusCode ?? null;
    if (status === 'network') return code === null && a.outcome !== 'http_status';
    if (typeof status === 'number') return code === status;
    return code !== null && `${Math.floor(code / 100)}xx` === status;
  });
}

/** Whether the key path `at` ends with `path`. */
function endsWith(at: readonly string[], path: readonly string[]): boolean {
  if (path.length > at.length) return false;
  const offset = at.length - path.length;
  return path.every((key, i) => at[offset + i] === key);
}

/** Marks in `found` the value terms some value of `body` satisfies; true once all are. */
function walkValues(body: unknown, terms: readonly ValueTerm[], found: boolean[], at: string[]): boolean {
  if (body !== null && typeof body === 'object') {
    if (Array.isArray(body)) {
      for (const item of body) if (walkValues(item, terms, found, at)) return true;
      return false;
    }
    for (const [key, value] of Object.entries(body)) {
      at.push(key.toLowerCase());
      const done = walkValues(value, terms, found, at);
      at.pop();
      if (done) return true;
    }
    return false;
  }
  const text = String(body).toLowerCase();
  let all = true;
  terms.forEach((t, i) => {
    if (!found[i] && text.includes(t.text) && (t.path === null || endsWith(at, t.path))) found[i] = true;
    all &&= found[i] === true;
  });
  return all;
}

/** The decoded body's JSON text (the bytes the receiver gets after gunzip). */
export function bodyText(n: NotificationRecord): string {
  return gunzipSync(n.gz.bytes()).toString('utf8');
}

/**
 * The bodies of `records` decoded with one gunzip of their members laid end to end (a gzip stream may
 * hold several), each cut at the length its member's trailer states (ISIZE, RFC 1952; zlib checks
 * it). Setting up a zlib stream costs about as much as inflating a 1.2 KB body, so a search decodes
 * 32 at a time (docs/perf-budget.md).
 */
export function bodyTexts(
  records: readonly NotificationRecord[],
  into: Map<NotificationRecord, string>,
): void {
  const gz = concatBodies(records.map((n) => n.gz));
  const out = gunzipSync(gz);
  let at = 0;
  let member = 0;
  for (const n of records) {
    member += n.gz.length;
    const length = gz.readUInt32LE(member - 4);
    into.set(n, out.toString('utf8', at, at + length));
    at += length;
  }
}

/**
 * A filter of the trigrams of each searched body's lower-case JSON text (decision 0203): 4,096 bits,
 * one bit per trigram, kept beside the record (a WeakMap, so a dropped record takes its filter along)
 * from the first search that decoded the body. A later search decodes a body only when the filter
 * holds every trigram of each term it still needs: a body that lacks one cannot contain the term, so
 * most bodies are never decoded again. 512 bytes per notification searched once; none before.
 */
const TRIGRAM_BITS = 4096;
/** A hash's top bits name a filter bit: 12 of them for 4,096. */
const TRIGRAM_SHIFT = 32 - Math.log2(TRIGRAM_BITS);
const trigrams = new WeakMap<NotificationRecord, Uint32Array>();

/**
 * The filter bit of the trigram ending at a character: `window` holds the low bytes of the last
 * three characters' codes, each read once (three reads and multiplies per trigram cost the first
 * search ~0.3 s of CPU at 20,000 bodies). Characters past U+00FF share bits with others: a false
 * "may hold", never a false "lacks".
 */
const trigramBit = (window: number): number => Math.imul(window & 0xffffff, 0x9e3779b1) >>> TRIGRAM_SHIFT;

/** The filter bits of a term's trigrams (lower case already). */
function termBits(text: string): number[] {
  const bits: number[] = [];
  let window = 0;
  for (let i = 0; i < text.length; i++) {
    window = (window << 8) | (text.charCodeAt(i) & 0xff);
    if (i >= 2) bits.push(trigramBit(window));
  }
  return bits;
}

/**
 * Keeps the trigram filter of `n`'s body, given its JSON text, lower-cased as it is read: ASCII
 * letters one by one; a text with a character past U+007F is lower-cased whole and read again.
 */
function rememberTrigrams(n: NotificationRecord, text: string): void {
  const filter = new Uint32Array(TRIGRAM_BITS / 32);
  let lower = text;
  let ascii = true;
  let window = 0;
  for (let i = 0; i < lower.length; i++) {
    let c = lower.charCodeAt(i);
    if (ascii && c > 0x7f) {
      // Read again from the start, lower-cased whole (the letters read so far set the same bits).
      ascii = false;
      lower = text.toLowerCase();
      window = 0;
      i = -1;
      continue;
    }
    if (c >= 0x41 && c <= 0x5a) c += 0x20;
    window = (window << 8) | (c & 0xff);
    if (i >= 2) {
      const bit = trigramBit(window);
      filter[bit >>> 5]! |= 1 << (bit & 31);
    }
  }
  trigrams.set(n, filter);
}

/** False when `n`'s body certainly lacks term `t`; true when it may hold it. */
function mayHold(n: NotificationRecord, t: ValueTerm): boolean {
  const filter = trigrams.get(n);
  if (!filter) return true;
  for (const bit of t.bits) if ((filter[bit >>> 5]! & (1 << (bit & 31))) === 0) return false;
  return true;
}

/** Whether the terms of `search` need `n`'s body to be decided (the attempts, its own names and its trigram filter may settle it). */
export function needsBody(n: NotificationRecord, search: NotificationSearch): boolean {
  const own = ownText(n);
  let needed = false;
  for (const t of search.terms) {
    if (t.kind === 'status' || (t.path === null && own.includes(t.text))) continue;
    if (!mayHold(n, t)) return false;
    needed = true;
  }
  return needed;
}

/** The notification's own names, lower case: a plain word may name them rather than the body. */
function ownText(n: NotificationRecord): string {
  return `${n.id}\u0000${n.bookingNumber}\u0000${n.filename}\u0000${n.credentialId}`.toLowerCase();
}

/**
 * Whether notification `n` satisfies every term of `search`; `textOf` hands its body's JSON text when
 * a term needs it (a scan passes texts it decoded in batches).
 */
export function searchMatches(
  n: NotificationRecord,
  search: NotificationSearch,
  textOf: (n: NotificationRecord) => string = bodyText,
): boolean {
  const valueTerms: ValueTerm[] = [];
  for (const t of search.terms) {
    if (t.kind === 'status') {
      if (!statusHolds(n, t.status)) return false;
    } else valueTerms.push(t);
  }
  if (!valueTerms.length) return true;
  // Plain words may name the notification itself rather than its body.
  const own = ownText(n);
  const found = valueTerms.map((t) => t.path === null && own.includes(t.text));
  if (found.every(Boolean)) return true;
  // A body whose trigram filter lacks a term's trigram cannot hold it: not decoded again.
  const lacks = () => valueTerms.some((t, i) => !found[i] && !mayHold(n, t));
  if (lacks()) return false;
  // The body is decompressed per search and never kept (100,000 decoded bodies would be ~300 MB).
  // Its filter, made now (the first search to decode it), settles most; a term absent from the
  // whole text cannot be in a value: the rest stop here, unparsed.
  const text = textOf(n);
  if (!trigrams.has(n)) {
    rememberTrigrams(n, text);
    if (lacks()) return false;
  }
  const lower = text.toLowerCase();
  if (valueTerms.some((t, i) => !found[i] && !lower.includes(t.escaped))) return false;
  return walkValues(JSON.parse(text) as unknown, valueTerms, found, []);
}
