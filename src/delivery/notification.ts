import type { z } from 'zod';
import { type BookingStatus, type StoredBody, unpackBody } from '../contract/index.js';
import { ATTEMPT_TRIGGERS, type AttemptShape, NOTIFICATION_STATES } from '../model/delivery.js';
import { UNCOUNTED_OUTCOMES } from './outcome.js';
import { deliveryHeaders } from './prepare.js';

/** Spec "Limits": up to 4 additional attempts after the first failed one. */
export const MAX_REDELIVERIES = 4;
/** The first attempt plus every redelivery. */
export const MAX_ATTEMPTS = 1 + MAX_REDELIVERIES;

/**
 * `pending` → `delivered` | `exhausted` | `cancelled` (docs/delivery.md "States and redelivery"); the
 * last three are final. `cancelled`: no longer redelivered, for the reason in `cancelReason`.
 */
export { NOTIFICATION_STATES };
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/**
 * Why a notification was cancelled: `credential_deleted`, its credential was deleted while it was
 * pending; `resent`, a resend took its place (decision 0200).
 */
export const CANCEL_REASONS = ['credential_deleted', 'resent'] as const;
export type CancelReason = (typeof CANCEL_REASONS)[number];

export { ATTEMPT_TRIGGERS };
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];

/** One POST of a notification (docs/admin-api.md "Notifications"). */
export type Attempt = z.output<typeof AttemptShape>;

/**
 * A notification as the outbox keeps it, compact for 100,000 pending (decision 0018): the body gzipped only
 * (the Buffer the reservation store also holds), strings shared with the credential or with other
 * records, and the headers built per attempt from `authorization`, `filename` and `gz.length`.
 */
export interface NotificationRecord {
  id: string;
  credentialId: string;
  bookingId: number;
  bookingNumber: string;
  bookingStatus: BookingStatus;
  state: NotificationState;
  url: string;
  createdAt: string;
  deliveredAt: string | null;
  exhaustedAt: string | null;
  /** Emulator time it was cancelled (state `cancelled`), else null. */
  cancelledAt: string | null;
  cancelReason: CancelReason | null;
  /** Set while an attempt runs when the notification must be cancelled once it ends undelivered. */
  cancelWhenSettled: CancelReason | undefined;
  filename: string;
  /** `Bearer <apiKey>` of the credential, one string shared by its notifications. */
  authorization: string;
  gz: StoredBody;
  /** Replaced (not pushed to) on each attempt, so it never carries spare capacity. */
  attempts: readonly Attempt[];
  /** The credential's warnings array itself (credentials are immutable once stored). */
  warnings: readonly string[];
  /** An attempt is queued or running. */
  inFlight: boolean;
  /** Emulator ms when the last attempt finished. */
  lastFinishedMs?: number;
  /** The notification this one resends (POST /__admin/notifications/:id/resend, bulk retry), else null. */
  resentFrom: string | null;
}

/** Attempts that count toward MAX_ATTEMPTS: all but those the emulator itself cut short. */
export function countedAttempts(n: Pick<NotificationRecord, 'attempts'>): number {
  let count = 0;
  for (const a of n.attempts) if (!UNCOUNTED_OUTCOMES.has(a.outcome)) count++;
  return count;
}

/**
 * `exhausted; 3 attempts cut off by a crash: the receiver may have acknowledged` for an exhausted
 * notification some of whose attempts a crash cut off (they count toward the 5, docs/delivery.md
 * "State across restarts"), else null.
 */
export function stateNote(n: Pick<NotificationRecord, 'state' | 'attempts'>): string | null {
  if (n.state !== 'exhausted') return null;
  let cut = 0;
  for (const a of n.attempts) if (a.outcome === 'interrupted_by_crash') cut++;
  if (cut === 0) return null;
  return `exhausted; ${cut} attempt${cut === 1 ? '' : 's'} cut off by a crash: the receiver may have acknowledged`;
}

/** The admin API's summary view of a notification. */
export function toSummary(n: NotificationRecord) {
  return {
    id: n.id,
    credentialId: n.credentialId,
    bookingId: n.bookingId,
    bookingNumber: n.bookingNumber,
    bookingStatus: n.bookingStatus,
    state: n.state,
    stateNote: stateNote(n),
    url: n.url,
    createdAt: n.createdAt,
    deliveredAt: n.deliveredAt,
    exhaustedAt: n.exhaustedAt,
    cancelledAt: n.cancelledAt,
    cancelReason: n.cancelReason,
    resentFrom: n.resentFrom,
    filename: n.filename,
    attemptCount: n.attempts.length,
    inFlight: n.inFlight,
    warnings: n.warnings,
    /** The latest attempt (a reference, not a copy), null before the first one ended. */
    lastAttempt: n.attempts.at(-1) ?? null,
  };
}

/** The admin API's full view: summary plus headers, the body (decompressed) and every attempt. */
export function toDetail(n: NotificationRecord) {
  const { attemptCount: _count, lastAttempt: _last, ...summary } = toSummary(n);
  return {
    ...summary,
    headers: deliveryHeaders(n.authorization, n.filename, n.gz.length),
    body: unpackBody(n.gz),
    attempts: n.attempts,
  };
}

export type NotificationSummary = ReturnType<typeof toSummary>;
