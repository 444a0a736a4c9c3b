/**
 * Delivery figures per credential (`GET /__admin/delivery-stats`, the inspector's figures panel):
 * counted from the notifications the outbox keeps, so they always agree with its list.
 */
import { acknowledges } from '../model/acknowledgement.js';
import type { NotificationRecord, NotificationState } from './notification.js';
import type { AttemptOutcome } from './outcome.js';

/** The last failed attempt of a credential's notifications. */
export interface LastFailure {
  notificationId: string;
  attempt: number;
  at: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  message: string;
}

/** One credential's figures. */
export interface DeliveryStats extends Record<NotificationState, number> {
  credentialId: string;
  /** false for a credential deleted since its notifications were made. */
  configured: boolean;
  notifications: number;
  attempts: number;
  /** Attempts answered exactly 200. */
  successfulAttempts: number;
  /** successfulAttempts / attempts; null without attempts. */
  successRate: number | null;
  lastFailure: LastFailure | null;
  /** The next redelivery batch, when one of its notifications is pending. */
  nextBatchAt: string | null;
}

/**
 * The figures of every configured credential (in routing order, even without notifications) and of
 * every deleted one that still has notifications, from `records`; `nextBatchAt` is the clock's next batch.
 */
export function deliveryStats(
  configuredIds: readonly string[],
  records: Iterable<NotificationRecord>,
  nextBatchAt: string | null,
): DeliveryStats[] {
  const byId = new Map<string, DeliveryStats>();
  for (const id of configuredIds) byId.set(id, empty(id, true));
  for (const n of records) {
    let s = byId.get(n.credentialId);
    if (!s) {
      s = empty(n.credentialId, false);
      byId.set(n.credentialId, s);
    }
    count(s, n);
  }
  return [...byId.values()].map((s) => ({
    ...s,
    successRate: s.attempts === 0 ? null : s.successfulAttempts / s.attempts,
    nextBatchAt: s.pending > 0 ? nextBatchAt : null,
  }));
}

function empty(credentialId: string, configured: boolean): DeliveryStats {
  return {
    credentialId,
    configured,
    notifications: 0,
    delivered: 0,
    pending: 0,
    exhausted: 0,
    cancelled: 0,
    attempts: 0,
    successfulAttempts: 0,
    successRate: null,
    lastFailure: null,
    nextBatchAt: null,
  };
}

function count(s: DeliveryStats, n: NotificationRecord): void {
  s.notifications++;
  s[n.state]++;
  for (const a of n.attempts) {
    s.attempts++;
    if (acknowledges(a)) s.successfulAttempts++;
    else if (!s.lastFailure || a.finishedAt >= s.lastFailure.at) {
      s.lastFailure = {
        notificationId: n.id,
        attempt: a.number,
        at: a.finishedAt,
        outcome: a.outcome,
        statusCode: a.statusCode ?? null,
        message: a.message,
      };
    }
  }
}
