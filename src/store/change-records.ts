import type { AuthService } from '../auth/index.js';
import type { Change } from '../change-stream.js';
import type { DeliveryService } from '../delivery/index.js';
import type { ClockMark, NotificationData } from '../model/changes.js';
import type { ReservationStore } from '../reservations/index.js';
import type { ChangeRecord } from './kinds.js';

/** The services a data dir keeps (a subset of the Emulator). */
export interface KeptServices {
  auth: AuthService;
  reservations: ReservationStore;
  delivery: DeliveryService;
}

/** A copy of `o` without its null members (a record leaves them out: a restart parses 100,000). */
function withoutNulls<T extends object>(o: T): { [K in keyof T]: Exclude<T[K], null> } {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined) out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], null> };
}

/**
 * The record a change is kept as (format 3, decision 0230), for the journal and a snapshot: the
 * change itself, except that a notification is named by its id and a body travels as bytes; none
 * for an event routed (its reservations and notifications are changes of their own).
 */
export function recordOf(c: Change, s: KeptServices, mark: () => ClockMark): ChangeRecord | undefined {
  switch (c.kind) {
    case 'event_routed':
      return undefined;
    case 'call_journaled':
      // With the journal off (`journalEntries` 0) nothing of a call is kept, on disk either.
      return s.auth.journal.enabled ? { k: c.kind, d: { entry: c.entry } } : undefined;
    case 'credential_added':
    case 'credential_replaced': {
      const { id, apiKey, url, filters, omitAuthorization } = c.credential;
      const credential = { id, apiKey, url, filters, ...(omitAuthorization ? { omitAuthorization } : {}) };
      return { k: c.kind, d: { credential } };
    }
    case 'reservation_saved': {
      const { gz, ...record } = c.record;
      // The journal carries the one history entry a save appended (decision 0144); a snapshot, all.
      const from = c.historyFrom === 0 ? 0 : record.history.length - 1;
      if (from > 0) {
        const d = { record: { ...record, history: record.history.slice(from) }, sequence: c.sequence };
        return { k: c.kind, d: { ...d, historyFrom: from }, b: gz };
      }
      return { k: c.kind, d: { record, sequence: c.sequence }, b: gz };
    }
    case 'notification_created':
      return notificationRecord(c.notification, s);
    case 'attempt_started':
      return { k: c.kind, d: { id: c.notification.id, attempt: c.attempt } };
    case 'attempt_ended':
      return {
        k: c.kind,
        d: { id: c.notification.id, attempt: c.attempt, settled: withoutNulls(c.settled) },
      };
    case 'notification_cancelled':
      return { k: c.kind, d: { id: c.notification.id, settled: withoutNulls(c.settled) } };
    case 'clock_started':
    case 'clock_advanced': {
      const { kind, ...moved } = c;
      return { k: kind, d: { ...moved, mark: mark() } } as ChangeRecord;
    }
    default: {
      // Every other change is plain data: the record is the change.
      const { kind, ...d } = c;
      return { k: kind, d } as ChangeRecord;
    }
  }
}

/**
 * A new notification's record, small to read fast: null members left out, warnings named by their
 * credential when they are its own, the body named by its reservation when it is that one's latest.
 */
function notificationRecord(
  n: Extract<Change, { kind: 'notification_created' }>['notification'],
  s: KeptServices,
): ChangeRecord {
  const { gz, inFlight: _, warnings, attempts, cancelWhenSettled, ...rest } = n;
  const d: NotificationData = withoutNulls(rest);
  if (n.state === 'pending' && cancelWhenSettled) d.cancelWhenSettled = cancelWhenSettled;
  if (attempts.length > 0) d.attempts = [...attempts];
  if (warnings.length > 0) {
    if (warnings === s.delivery.credentials.get(n.credentialId)?.warnings) d.warningsOf = n.credentialId;
    else d.warnings = [...warnings];
  }
  if (s.reservations.stored(n.bookingId)?.record.gz !== gz)
    return { k: 'notification_created', d: { notification: d }, b: gz };
  d.gzOf = n.bookingId;
  return { k: 'notification_created', d: { notification: d } };
}
