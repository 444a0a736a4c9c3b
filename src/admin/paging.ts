/**
 * The one way the admin API pages a list (decision 0236): the notifications, the GetAccessToken
 * journal, the reservations, the users and the tokens all answer a page of at most `limit` (default
 * and most PAGE_LIMIT) with `total`, `nextCursor` and `newerCursor`, found by a scan that gives the
 * event loop back every few milliseconds, so neither an answer nor the time to make it grows with
 * what is kept.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { PAGE_LIMIT, type PAGE_QUERY } from './contract/fields.js';

/** How long a scan runs before it lets the event loop serve others (deliveries, events, the stream). */
const SCAN_SLICE_MS = 4;

/** The paging members of a list's query, as mount() read them. */
export type PageQuery = { [K in keyof typeof PAGE_QUERY]?: z.output<(typeof PAGE_QUERY)[K]> };

/** What a scan found: one page of matches (oldest first), how many match in all, and the cursors beside it. */
export interface ScanResult<T> {
  records: T[];
  total: number;
  /** The id to pass as `before` for the next, older page; null when this page reaches the oldest match. */
  nextCursor: string | null;
  /** The id to pass as `after` for the next, newer page; null when this page reaches the newest match. */
  newerCursor: string | null;
}

/** How a scan reads a list: its items' ids (the cursors), what an item is called (in errors), the client's signal. */
export interface ScanOptions<T> {
  idOf: (item: T) => string;
  /** `notification`, `request`: the word a cursor naming no item uses. */
  what: string;
  signal?: AbortSignal;
}

/** The index of the item a cursor names, or an error saying the list moved on. */
function cursorAt<T>(
  records: readonly T[],
  name: 'before' | 'after',
  id: string,
  how: ScanOptions<T>,
): number {
  const at = records.findIndex((n) => how.idOf(n) === id);
  if (at < 0) {
    throw new InputError(
      'invalid_query',
      `${name}: no ${how.what} "${id}" (a cursor of a reset or dropped list); start again without ${name}.`,
      { path: name },
    );
  }
  return at;
}

/**
 * Filters `records` (oldest first) newest first, yielding to the event loop every few milliseconds;
 * stops early when the signal aborts (the client went away). Keeps one page of `limit` matches (the
 * newest, those older than `before`, the oldest of those newer than `after`, or the oldest of all:
 * `page=oldest`), every match without `limit`, and counts every match. `matches` is handed the index
 * too (a search decodes the bodies of the next older records with one gunzip).
 */
export async function scanPage<T>(
  records: readonly T[],
  matches: (item: T, index: number) => boolean,
  query: PageQuery,
  how: ScanOptions<T>,
): Promise<ScanResult<T>> {
  if (query.before !== undefined && (query.after !== undefined || query.page === 'oldest'))
    throw new InputError('invalid_query', 'before: give before, after or page=oldest, not two of them.', {
      path: 'before',
    });
  // The window of the page: indexes lo..hi; from its oldest end when the page is after a cursor.
  const hi =
    query.before === undefined ? records.length - 1 : cursorAt(records, 'before', query.before, how) - 1;
  const lo = query.after === undefined ? 0 : cursorAt(records, 'after', query.after, how) + 1;
  const fromOldest = query.after !== undefined || query.page === 'oldest';
  const limit = query.limit ?? Number.POSITIVE_INFINITY;
  let found: T[] = [];
  let total = 0;
  let older = false;
  let newer = false;
  let slice = performance.now();
  for (let i = records.length - 1; i >= 0; i--) {
    // The clock every 8 records: a record can cost a decode and a parse (~2.5 ms on a busy machine),
    // so 64 between looks held the loop ~170 ms.
    if ((i & 7) === 0 && performance.now() - slice > SCAN_SLICE_MS) {
      await yieldToEventLoop();
      if (how.signal?.aborted) break;
      slice = performance.now();
    }
    const n = records[i]!;
    if (!matches(n, i)) continue;
    total++;
    if (i > hi) newer = true;
    else if (i < lo) older = true;
    else if (!fromOldest) {
      if (found.length < limit) found.push(n);
      else older = true;
    } else {
      // The oldest `limit` of the window are the last met: keep a tail (trimmed now and then).
      found.push(n);
      if (found.length >= 2 * limit) {
        found = found.slice(-limit);
        newer = true;
      }
    }
  }
  if (found.length > limit) {
    found = found.slice(-limit);
    newer = true;
  }
  found.reverse();
  return {
    records: found,
    total,
    nextCursor: older && found.length ? how.idOf(found[0]!) : null,
    newerCursor: newer && found.length ? how.idOf(found.at(-1)!) : null,
  };
}

/**
 * A list's answer: the page `query` asks for (PAGE_LIMIT items without `limit`) of the `records` that
 * match, each shown as `view` shows it, under `key`, with `total` and the cursors.
 */
export async function listPage<T, K extends string, V>(
  key: K,
  records: readonly T[],
  query: PageQuery,
  how: ScanOptions<T> & { matches?: (item: T) => boolean; view: (item: T) => V },
): Promise<{ [P in K]: V[] } & Omit<ScanResult<T>, 'records'>> {
  const { records: page, ...rest } = await scanPage(
    records,
    how.matches ?? (() => true),
    withLimit(query),
    how,
  );
  return { [key]: page.map(how.view), ...rest } as { [P in K]: V[] } & Omit<ScanResult<T>, 'records'>;
}

/** `query` with its `limit`, PAGE_LIMIT when it gives none: a list is always a page. */
export function withLimit(query: PageQuery): PageQuery {
  return { ...query, limit: query.limit ?? PAGE_LIMIT };
}
