import { gunzipSync } from 'node:zlib';
import type { z } from 'zod';
import type { NotificationFilter, NotificationRecord } from '../delivery/index.js';
import type { ExportQuerySchema, STATUS_CLASSES } from './contract/delivery-schemas.js';

/** The filters both queries share. */
type NotificationFilters = Omit<z.output<typeof ExportQuerySchema>, 'format'>;

export type StatusClass = (typeof STATUS_CLASSES)[number];

/**
 * The filters of `GET /__admin/notifications` and its export, read from the query string: `state`,
 * `credentialId`, `bookingId` (the outbox's own), and `bookingStatus`, `statusClass`, `attempts`
 * (exact count), `booking` (part of a BookingNumber or BookingID, as the dashboard's box), `q` (text
 * inside the decoded body, the id, BookingNumber or filename; any case).
 */
export interface NotificationQuery {
  filter: NotificationFilter;
  /** Whether a record passes the filters the outbox does not know. */
  matches: (n: NotificationRecord) => boolean;
  /** Whether any filter beyond the outbox's own was given. */
  extra: boolean;
}

/** The status class of a record's last attempt. */
export function statusClassOf(n: NotificationRecord): StatusClass {
  const last = n.attempts.at(-1);
  if (!last) return 'none';
  if (last.statusCode === undefined || last.statusCode === null) return 'network';
  return `${Math.floor(last.statusCode / 100)}xx` as StatusClass;
}

/** The decoded body's JSON text (the bytes the receiver gets after gunzip). */
export function bodyText(n: NotificationRecord): string {
  return gunzipSync(n.gz).toString('utf8');
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
  const needle = q.q?.trim().toLowerCase() || undefined;
  const booking = q.booking?.trim().toUpperCase() || undefined;
  const matches = (n: NotificationRecord): boolean =>
    (status === undefined || n.bookingStatus === status) &&
    (statusClass === undefined || statusClassOf(n) === statusClass) &&
    (attempts === undefined || n.attempts.length === attempts) &&
    (booking === undefined || n.bookingNumber.includes(booking) || String(n.bookingId).includes(booking)) &&
    (needle === undefined || textMatches(n, needle));
  return {
    filter,
    matches,
    extra:
      status !== undefined ||
      statusClass !== undefined ||
      attempts !== undefined ||
      booking !== undefined ||
      needle !== undefined,
  };
}

// The body is decompressed per search and never kept: 100,000 decoded bodies would be ~300 MB.
function textMatches(n: NotificationRecord, needle: string): boolean {
  for (const field of [n.id, n.bookingNumber, n.filename, n.credentialId]) {
    if (field.toLowerCase().includes(needle)) return true;
  }
  return bodyText(n).toLowerCase().includes(needle);
}
