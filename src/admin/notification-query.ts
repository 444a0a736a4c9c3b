import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { z } from 'zod';
import type { NotificationFilter, NotificationRecord } from '../delivery/index.js';
import { InputError } from '../errors.js';
import type { ExportQuerySchema, STATUS_CLASSES } from './contract/delivery-schemas.js';
import {
  bodyTexts,
  type NotificationSearch,
  needsBody,
  parseSearch,
  searchMatches,
} from './notification-search.js';

/** The filters both queries share, as mount() read them against the declared schema. */
type NotificationFilters = Omit<z.output<typeof ExportQuerySchema>, 'format'>;

export type StatusClass = (typeof STATUS_CLASSES)[number];

/**
 * The filters of `GET /__admin/notifications` and its export, read from the query string: `state`,
 * `credentialId`, `bookingId` (the outbox's own), and `bookingStatus`, `statusClass`, `attempts`
 * (exact count), `booking` (part of a BookingNumber or BookingID, as the dashboard's box), `since` /
 * `until` (creation, emulator time), `sinceWall` / `untilWall` (first attempt, wall time), `q` (values
 * of the decoded body, the id, BookingNumber or filename, any case; the language of
 * `notification-search.ts`: `Pax.LastName:Lubowitz`, `status:500`).
 */
export interface NotificationQuery {
  filter: NotificationFilter;
  /** Whether a record passes the filters the outbox does not know but the search `q`: what a scan checks before it decodes a body. */
  passes: (n: NotificationRecord) => boolean;
  /** The search `q`, parsed; null without one. */
  search: NotificationSearch | null;
}

/** The status class of a record's last attempt. */
export function statusClassOf(n: NotificationRecord): StatusClass {
  const last = n.attempts.at(-1);
  if (!last) return 'none';
  if (last.statusCode === undefined || last.statusCode === null) return 'network';
  return `${Math.floor(last.statusCode / 100)}xx` as StatusClass;
}

/**
 * The filters of a query string, as mount() read and validated them against the declared schema
 * (`NotificationQuerySchema` / `ExportQuerySchema`): split into the outbox's own and the rest.
 */
export function notificationQuery(q: NotificationFilters): NotificationQuery {
  const filter: NotificationFilter = {};
  if (q.state !== undefined) filter.state = q.state;
  if (q.credentialId !== undefined) filter.credentialId = q.credentialId;
  if (q.bookingId !== undefined) filter.bookingId = q.bookingId;
  const { bookingStatus: status, statusClass, attempts } = q;
  const search = q.q === undefined ? null : parseSearch(q.q);
  const booking = q.booking?.trim().toUpperCase() || undefined;
  const since = instantParam(q, 'since');
  const until = instantParam(q, 'until');
  const sinceWall = instantParam(q, 'sinceWall');
  const untilWall = instantParam(q, 'untilWall');
  const wall = sinceWall !== undefined || untilWall !== undefined;
  const passes = (n: NotificationRecord): boolean => {
    if (status !== undefined && n.bookingStatus !== status) return false;
    if (statusClass !== undefined && statusClassOf(n) !== statusClass) return false;
    if (attempts !== undefined && n.attempts.length !== attempts) return false;
    if (booking !== undefined && !n.bookingNumber.includes(booking) && !String(n.bookingId).includes(booking))
      return false;
    if (since !== undefined && Date.parse(n.createdAt) < since) return false;
    if (until !== undefined && Date.parse(n.createdAt) >= until) return false;
    if (wall) {
      const first = n.attempts[0];
      if (!first) return false;
      const at = Date.parse(first.startedAtWall);
      if ((sinceWall !== undefined && at < sinceWall) || (untilWall !== undefined && at >= untilWall))
        return false;
    }
    return true;
  };
  return {
    filter,
    passes,
    search,
  };
}

/** An instant of the query as epoch ms (the route table's InstantInput checked its form and range). */
function instantParam(
  q: NotificationFilters,
  name: 'since' | 'until' | 'sinceWall' | 'untilWall',
): number | undefined {
  const text = q[name];
  return text === undefined ? undefined : Date.parse(text);
}

/** How long a scan runs before it lets the event loop serve others (deliveries, events, the stream). */
const SCAN_SLICE_MS = 4;
/** How many bodies a search decodes with one gunzip (notification-search.ts `bodyTexts`). */
const BODY_BATCH = 32;

/** What a bounded scan found: one page of matches (oldest first), how many match in all (either side of the page), and the cursors beside it. */
export interface ScanResult {
  records: NotificationRecord[];
  total: number;
  /** The id to pass as `before` for the next, older page; null when this page reaches the oldest match. */
  nextCursor: string | null;
  /** The id to pass as `after` for the next, newer page; null when this page reaches the newest match. */
  newerCursor: string | null;
}

/** Where a page starts: the newest matches (default), those older than `before`, those just newer than `after`, or the oldest. */
export interface PageAnchor {
  limit?: number;
  before?: string;
  after?: string;
  oldest?: boolean;
}

/** The index of the notification a cursor names, or an error saying the list moved on. */
function cursorAt(records: readonly NotificationRecord[], name: 'before' | 'after', id: string): number {
  const at = records.findIndex((n) => n.id === id);
  if (at < 0) {
    throw new InputError(
      'invalid_query',
      `${name}: no notification "${id}" (a cursor of a reset or dropped list); start again without ${name}.`,
      { path: name },
    );
  }
  return at;
}

/**
 * Filters `records` (creation order) newest first, yielding to the event loop every few milliseconds
 * so a search of 100,000 bodies never stalls a delivery or an event; stops early when `signal` aborts
 * (the client went away). Keeps one page of `limit` matches (the newest, those older than `before`,
 * the oldest of those newer than `after`, or the oldest of all), and counts every match.
 */
export async function scanNotifications(
  records: readonly NotificationRecord[],
  query: Pick<NotificationQuery, 'passes' | 'search'>,
  options: PageAnchor & { signal?: AbortSignal },
): Promise<ScanResult> {
  if (options.before !== undefined && (options.after !== undefined || options.oldest))
    throw new InputError('invalid_query', 'before: give before, after or page=oldest, not two of them.', {
      path: 'before',
    });
  // The window of the page: indexes lo..hi; from its oldest end when the page is after a cursor.
  const hi =
    options.before === undefined ? records.length - 1 : cursorAt(records, 'before', options.before) - 1;
  const lo = options.after === undefined ? 0 : cursorAt(records, 'after', options.after) + 1;
  const fromOldest = options.after !== undefined || options.oldest === true;
  const limit = options.limit ?? Number.POSITIVE_INFINITY;
  let found: NotificationRecord[] = [];
  let total = 0;
  let older = false;
  let newer = false;
  const { passes, search } = query;
  // Bodies decoded ahead for the search: the record asked for and the next older ones that pass
  // the other filters and need theirs.
  const texts = new Map<NotificationRecord, string>();
  let i = records.length - 1;
  const textOf = (n: NotificationRecord): string => {
    let text = texts.get(n);
    if (text === undefined) {
      texts.clear();
      const batch = [n];
      for (let j = i - 1; j >= 0 && batch.length < BODY_BATCH; j--) {
        const older = records[j]!;
        if (passes(older) && needsBody(older, search!)) batch.push(older);
      }
      bodyTexts(batch, texts);
      text = texts.get(n)!;
    }
    return text;
  };
  const matches = (n: NotificationRecord): boolean =>
    passes(n) && (search === null || searchMatches(n, search, textOf));
  let slice = performance.now();
  for (; i >= 0; i--) {
    // The clock every 8 records: a first search decodes each body and builds its filter (decision
    // 0203), ~2.5 ms a record on a busy machine, so 64 between looks held the loop ~170 ms.
    if ((i & 7) === 0 && performance.now() - slice > SCAN_SLICE_MS) {
      await yieldToEventLoop();
      if (options.signal?.aborted) break;
      slice = performance.now();
    }
    const n = records[i]!;
    if (!matches(n)) continue;
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
    nextCursor: older && found.length ? found[0]!.id : null,
    newerCursor: newer && found.length ? found.at(-1)!.id : null,
  };
}
