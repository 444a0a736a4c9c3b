import type { JournalEntry } from '../auth/journal.js';
import type { Attempt, NotificationSummary } from '../delivery/notification.js';
import type { BatchResult } from '../delivery/outbox.js';
import type { StartedAttempt } from '../delivery/outbox-state.js';

/** What an admin change was (docs/admin-api.md "Live stream"). */
export const ADMIN_CHANGES = [
  'credential_added',
  'credential_changed',
  'credential_removed',
  'user_added',
  'user_changed',
  'user_removed',
  'ca_trusted',
  'ca_untrusted',
  'reset',
  'fault_added',
  'faults_removed',
  'outage_added',
  'outages_removed',
  'token_revoked',
] as const;
export type AdminChange = (typeof ADMIN_CHANGES)[number];

/**
 * Everything the live stream (`GET /__admin/stream`) and the info log report, one member per kind.
 * Times are emulator time.
 */
export type Activity =
  | {
      kind: 'event';
      event: string;
      at: string;
      reservations: ReadonlyArray<{ bookingId: number; bookingNumber: string; status: string }>;
      notifications: readonly string[];
      routedTo: number;
      /** The ids of the credentials it was routed to, in routing order. */
      credentials: readonly string[];
    }
  | { kind: 'notification_created'; notification: NotificationSummary }
  /** A notification cancelled outside an attempt, or set to be when its attempt ends: as it now stands. */
  | { kind: 'notification_changed'; notification: NotificationSummary }
  /** An attempt's request went out: the notification in flight, and what is known before the answer. */
  | { kind: 'attempt_started'; notification: NotificationSummary; attempt: StartedAttempt }
  | { kind: 'attempt'; notification: NotificationSummary; attempt: Attempt }
  /** Settled notifications the retention setting dropped (decision 0127); `dropped`: the count since the start or the last reset. */
  | { kind: 'notifications_dropped'; ids: readonly string[]; dropped: number }
  | { kind: 'batch'; batch: BatchResult }
  | { kind: 'clock'; from: string; to: string; batches: readonly string[] }
  | { kind: 'token'; entry: JournalEntry }
  | { kind: 'admin'; change: AdminChange; subject: string; detail?: string }
  /** An admin call answered 4xx: what was asked and the problem's code and message. */
  | { kind: 'refused'; method: string; path: string; status: number; code: string; message: string };

export type ActivityListener = (activity: Activity) => void;
