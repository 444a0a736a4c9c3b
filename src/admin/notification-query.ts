import type { z } from 'zod';
import type { NotificationFilter, NotificationRecord } from '../delivery/index.js';
import type { ExportQuerySchema, STATUS_CLASSES } from './contract/delivery-schemas.js';
import {
  bodyTexts,
  type NotificationSearch,
  needsBody,
  parseSearch,
  searchMatches,
} from './notification-search.js';
import { type PageQuery, type ScanResult, scanPage } from './paging.js';

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

/** How many bodies a search decodes with one gunzip (notification-search.ts `bodyTexts`). */
const BODY_BATCH = 32;

/**
 * Filters `records` (creation order) newest first in slices that yield (scanPage, decision 0236), so
 * a search of 100,000 bodies never stalls a delivery or an event; stops early when `signal` aborts.
 * Keeps the page `anchor` asks for (every match without `limit`), and counts every match.
 */
export function scanNotifications(
  records: readonly NotificationRecord[],
  query: Pick<NotificationQuery, 'passes' | 'search'>,
  anchor: PageQuery & { signal?: AbortSignal },
): Promise<ScanResult<NotificationRecord>> {
  const { passes, search } = query;
  // Bodies decoded ahead for the search: the record asked for and the next older ones that pass
  // the other filters and need theirs.
  const texts = new Map<NotificationRecord, string>();
  const textAt = (n: NotificationRecord, i: number): string => {
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
  const matches = (n: NotificationRecord, i: number): boolean =>
    passes(n) && (search === null || searchMatches(n, search, (m) => textAt(m, i)));
  const how = { idOf: (n: NotificationRecord) => n.id, what: 'notification' };
  return scanPage(records, matches, anchor, anchor.signal ? { ...how, signal: anchor.signal } : how);
}
