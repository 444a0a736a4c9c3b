import type { Change } from '../change-stream.js';
import type { ClockMark, OutgoingRecord } from './kinds.js';
import {
  changeRecord,
  credentialData,
  type KeptServices,
  notificationRecord,
  reservationRecord,
  trustRecord,
} from './snapshot.js';

/** What turning a change into its record needs besides the change: the services and the clock's mark. */
export interface KeepContext {
  services: KeptServices;
  mark(): ClockMark;
}

/**
 * The record a change is kept as in the data dir's journal (decision 0080, 0110), or none when the
 * change is kept by others (an event routed: its reservations and notifications are changes of
 * their own). Exhaustive: a new kind of change without a record here does not compile.
 */
export function recordOf(c: Change, ctx: KeepContext): OutgoingRecord | undefined {
  switch (c.kind) {
    case 'user_added':
    case 'user_replaced':
      return { k: 'user+', d: c.user };
    case 'user_removed':
      return { k: 'user-', d: { username: c.username } };
    case 'credential_added':
    case 'credential_replaced':
      return { k: 'cred+', d: credentialData(c.credential) };
    case 'credential_removed':
      return { k: 'cred-', d: { id: c.id } };
    case 'trust_added':
      return trustRecord(c.pem, c.certificate);
    case 'trust_removed':
      return { k: 'trust-', d: { fingerprint: c.certificate.fingerprint256 } };
    case 'fault_added':
    case 'fault_removed':
    case 'faults_cleared':
    case 'fault_used':
      return { k: 'faults', d: { faults: c.faults } };
    case 'outage_added':
    case 'outage_removed':
    case 'outages_cleared':
    case 'outage_used':
    case 'outages_of_credential_removed':
      return { k: 'outages', d: { outages: c.outages } };
    case 'token_issued':
      return {
        k: 'tok',
        d: {
          token: c.token,
          username: c.username,
          version: c.version,
          issuedAtMs: c.issuedAtMs,
          revoked: false,
        },
      };
    case 'token_revoked':
      return { k: 'tok-', d: { token: c.token } };
    case 'call_journaled':
      // With the journal off (`journalEntries` 0) nothing of a call is kept, on disk either.
      return ctx.services.auth.journal.enabled ? { k: 'req', d: c.entry } : undefined;
    case 'reservation_saved':
      return reservationRecord(c.record, c.sequence, 'appended');
    case 'notification_created': {
      const { services } = ctx;
      const n = c.notification;
      return notificationRecord(
        n,
        services.reservations.stored(n.bookingId)?.record.gz === n.gz,
        services.delivery.credentials.get(n.credentialId)?.warnings,
      );
    }
    case 'attempt_started':
      return { k: 'a>', d: { id: c.notification.id, attempt: c.attempt } };
    case 'attempt_ended':
      return changeRecord(c.notification.id, c.settled, c.attempt);
    case 'notification_cancelled':
      return changeRecord(c.notification.id, c.settled);
    case 'batch_started':
      return { k: 'b>', d: { at: c.at } };
    case 'batch_done':
      return { k: 'b', d: c.result };
    case 'notifications_dropped':
      return { k: 'n-', d: { ids: [...c.ids], dropped: c.dropped } };
    case 'clock_started':
    case 'clock_advanced':
      return { k: 'clock', d: ctx.mark() };
    case 'reset':
      return { k: 'reset', d: {} };
    case 'event_routed':
      return undefined;
    default:
      return unkeptKind(c);
  }
}

function unkeptKind(c: never): undefined {
  throw new Error(`no data dir record for change ${JSON.stringify(c)}`);
}
