import type { z } from 'zod';
import { type StoredBody, unpackBody } from '../contract/index.js';
import { ATTEMPT_TRIGGERS, type AttemptShape, NOTIFICATION_STATES } from '../model/delivery.js';
import {
  CANCEL_REASONS,
  type COMPUTED_MEMBERS,
  literalOf,
  membersOf,
  type NotificationMembers,
  NotificationSummaryShape,
} from '../model/notification.js';
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

export { CANCEL_REASONS };
export type CancelReason = (typeof CANCEL_REASONS)[number];

export { ATTEMPT_TRIGGERS };
export type AttemptTrigger = (typeof ATTEMPT_TRIGGERS)[number];

/** One POST of a notification (docs/admin-api.md "Notifications"). */
export type Attempt = z.output<typeof AttemptShape>;

/**
 * A notification as the outbox keeps it, compact for 100,000 pending (decision 0018): its members
 * (src/model/notification.ts), the body gzipped only (the Buffer the reservation store also holds),
 * strings shared with the credential or with other records, and the headers built per attempt from
 * `authorization`, `filename` and `gz.length`.
 */
export interface NotificationRecord extends NotificationMembers {
  /** Set while an attempt runs when the notification must be cancelled once it ends undelivered. */
  cancelWhenSettled: CancelReason | undefined;
  /** `Bearer <apiKey>` of the credential, one string shared by its notifications. */
  authorization: string;
  gz: StoredBody;
  /** Replaced (not pushed to) on each attempt, so it never carries spare capacity. */
  attempts: readonly Attempt[];
  /** Emulator ms when the last attempt finished. */
  lastFinishedMs?: number;
}

/** What a record holds beyond its members. */
type Kept = Pick<
  NotificationRecord,
  'cancelWhenSettled' | 'authorization' | 'gz' | 'attempts' | 'lastFinishedMs'
>;

/**
 * A record of `members` (the nullable ones left out are null), every member in one order whatever
 * made it (an event, a resend, a restart): one object shape for 100,000 records.
 */
export function buildNotification(members: Partial<NotificationMembers>, kept: Kept): NotificationRecord {
  const n = membersOf(members) as NotificationRecord;
  n.cancelWhenSettled = kept.cancelWhenSettled;
  n.authorization = kept.authorization;
  n.gz = kept.gz;
  n.attempts = kept.attempts;
  n.lastFinishedMs = kept.lastFinishedMs;
  return n;
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

/** The summary's members a view computes from the record. */
const COMPUTED: {
  [K in (typeof COMPUTED_MEMBERS)[number]]: (n: NotificationRecord) => NotificationSummary[K];
} = {
  stateNote,
  attemptCount: (n) => n.attempts.length,
  /** The latest attempt (a reference, not a copy), null before the first one ended. */
  lastAttempt: (n) => n.attempts.at(-1) ?? null,
};
const summaryOf = literalOf<NotificationRecord, typeof COMPUTED, NotificationSummary>(
  Object.keys(NotificationSummaryShape.shape).map(
    (k) => [k, k in COMPUTED ? `f.${k}(n)` : `n.${k}`] as const,
  ),
);

/** The admin API's summary view of a notification: the members of its shape, in its order. */
export function toSummary(n: NotificationRecord): NotificationSummary {
  return summaryOf(n, COMPUTED);
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

export type NotificationSummary = z.output<typeof NotificationSummaryShape>;
