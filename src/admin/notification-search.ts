import { gunzipSync } from 'node:zlib';
import { bodyMayHold, concatBodies, sketchBody, termBits } from '../contract/index.js';
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
  /** The sketch bits of `text`'s trigrams (a body whose sketch lacks one cannot hold it). */
  bits: readonly number[];
  /** A plain word's text, any case, to look for in the notification's own names; null under a path. */
  own: RegExp | null;
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
      bits: termBits(value),
      own: field === null ? new RegExp(value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : null,
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
function walkValues(
  body: unknown,
  terms: readonly ValueTerm[],
  found: boolean[],
  at: string[] | null,
): boolean {
  if (body !== null && typeof body === 'object') {
    if (Array.isArray(body)) {
      for (const item of body) if (walkValues(item, terms, found, at)) return true;
      return false;
    }
    // Key paths are kept only when a term names one (`at` null otherwise: no key lower-cased).
    for (const key in body) {
      at?.push(key.toLowerCase());
      const done = walkValues((body as Record<string, unknown>)[key], terms, found, at);
      at?.pop();
      if (done) return true;
    }
    return false;
  }
  const text = String(body).toLowerCase();
  let all = true;
  for (let i = 0; i < terms.length; i++) {
    const t = terms[i]!;
    if (!found[i] && text.includes(t.text) && (t.path === null || endsWith(at ?? [], t.path)))
      found[i] = true;
    all &&= found[i] === true;
  }
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

/** False when `n`'s body certainly lacks term `t` (its sketch, decision 0254); true when it may hold it. */
function mayHold(n: NotificationRecord, t: ValueTerm): boolean {
  return bodyMayHold(n.gz, t.bits);
}

/** Whether the terms of `search` need `n`'s body to be decided (the attempts, its own names and its sketch may settle it). */
export function needsBody(n: NotificationRecord, search: NotificationSearch): boolean {
  let needed = false;
  for (const t of search.terms) {
    if (t.kind === 'status' || namesIt(n, t)) continue;
    if (!mayHold(n, t)) return false;
    needed = true;
  }
  return needed;
}

/** Whether plain word `t` is in one of `n`'s own names (id, BookingNumber, filename, credential id: all ASCII), any case. */
function namesIt(n: NotificationRecord, t: ValueTerm): boolean {
  const own = t.own;
  return (
    own !== null &&
    (own.test(n.id) || own.test(n.bookingNumber) || own.test(n.filename) || own.test(n.credentialId))
  );
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
  // Most records are settled here, nothing allocated: an attempt that fails a status term, or a word
  // that neither the notification's names nor its body's sketch can hold.
  for (const t of search.terms) {
    if (t.kind === 'status' ? !statusHolds(n, t.status) : !namesIt(n, t) && !mayHold(n, t)) return false;
  }
  const valueTerms = search.terms.filter((t): t is ValueTerm => t.kind === 'value');
  // Plain words may name the notification itself rather than its body.
  const found = valueTerms.map((t) => namesIt(n, t));
  if (found.every(Boolean)) return true;
  // A body whose sketch lacks a term's trigram cannot hold it: not decoded.
  const lacks = () => valueTerms.some((t, i) => !found[i] && !mayHold(n, t));
  if (lacks()) return false;
  // The body is decompressed per search and never kept (100,000 decoded bodies would be ~300 MB).
  // A body without a sketch (read back from a data dir) gets one now; a term absent from the whole
  // text cannot be in a value: the rest stop here, unparsed.
  const text = textOf(n);
  if (n.gz.sketch < 0) {
    sketchBody(n.gz, text);
    if (lacks()) return false;
  }
  const lower = text.toLowerCase();
  if (valueTerms.some((t, i) => !found[i] && !lower.includes(t.escaped))) return false;
  const paths = valueTerms.some((t) => t.path !== null);
  return walkValues(JSON.parse(text) as unknown, valueTerms, found, paths ? [] : null);
}
