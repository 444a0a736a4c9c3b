import { gunzipSync } from 'node:zlib';
import { BOOKING_STATUSES } from '../contract/index.js';
import { NOTIFICATION_STATES, type NotificationFilter, type NotificationRecord } from '../delivery/index.js';
import { InputError } from '../errors.js';
import { STATUS_CLASSES } from './contract/delivery-schemas.js';
import { intParam } from './read-json.js';

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

function oneOf<T extends string>(name: string, value: string, accepted: readonly T[]): T {
  if (!(accepted as readonly string[]).includes(value)) {
    throw new InputError('invalid_query', `${name}: "${value}" is not one of ${accepted.join(', ')}.`, {
      path: name,
      accepted,
    });
  }
  return value as T;
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

/** Reads the notification filters of a query string; a 400 names a wrong value and the accepted ones. */
export function notificationQuery(q: Record<string, string>): NotificationQuery {
  const filter: NotificationFilter = {};
  if (q.state !== undefined) {
    if (!(NOTIFICATION_STATES as readonly string[]).includes(q.state)) {
      throw new InputError('invalid_query', `state: "${q.state}" is not a notification state.`, {
        path: 'state',
        accepted: NOTIFICATION_STATES,
      });
    }
    filter.state = q.state;
  }
  if (q.credentialId !== undefined) filter.credentialId = q.credentialId;
  if (q.bookingId !== undefined) filter.bookingId = intParam(q.bookingId, 'bookingId');
  const status =
    q.bookingStatus === undefined ? undefined : oneOf('bookingStatus', q.bookingStatus, BOOKING_STATUSES);
  const statusClass =
    q.statusClass === undefined ? undefined : oneOf('statusClass', q.statusClass, STATUS_CLASSES);
  let attempts: number | undefined;
  if (q.attempts !== undefined) {
    attempts = Number(q.attempts);
    if (!/^\d$/.test(q.attempts) || attempts > 5) {
      throw new InputError(
        'invalid_query',
        `attempts must be a whole number from 0 to 5, got "${q.attempts}".`,
        {
          path: 'attempts',
        },
      );
    }
  }
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
      status !== undefined || statusClass !== undefined || attempts !== undefined || needle !== undefined,
  };
}

// The body is decompressed per search and never kept: 100,000 decoded bodies would be ~300 MB.
function textMatches(n: NotificationRecord, needle: string): boolean {
  for (const field of [n.id, n.bookingNumber, n.filename, n.credentialId]) {
    if (field.toLowerCase().includes(needle)) return true;
  }
  return bodyText(n).toLowerCase().includes(needle);
}
