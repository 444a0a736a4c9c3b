import type { Change } from '../change-stream.js';
import type { KeptServices } from './change-records.js';

/**
 * Hands a change read back from a data dir to the `apply` of the store that owns its kind (decision
 * 0212): replay runs the same code that made the change live. Reset reaches every store it forgets.
 * Every kind a store applies has its case (the configuration's too, though replay puts users,
 * credentials and trust back through their mutators so that a preload wins).
 */
export function applyReplayed(s: KeptServices, change: ReplayedChange): void {
  switch (change.kind) {
    case 'user_added':
    case 'user_replaced':
    case 'user_removed':
      s.auth.users.apply(change);
      break;
    case 'credential_added':
    case 'credential_replaced':
    case 'credential_removed':
      s.delivery.credentials.apply(change);
      break;
    case 'trust_added':
    case 'trust_removed':
      s.delivery.trustStore.apply(change);
      break;
    case 'fault_added':
    case 'fault_removed':
    case 'faults_cleared':
    case 'fault_used':
      s.auth.faults.apply(change);
      break;
    case 'outage_added':
    case 'outage_removed':
    case 'outages_cleared':
    case 'outage_used':
    case 'outages_of_credential_removed':
      s.delivery.outages.apply(change);
      break;
    case 'call_journaled':
      s.auth.journal.apply(change);
      break;
    case 'token_issued':
    case 'token_revoked':
      s.auth.tokens.apply(change);
      break;
    case 'reservation_saved':
      s.reservations.state.apply(change);
      break;
    case 'notification_created':
    case 'attempt_started':
    case 'attempt_ended':
    case 'notification_cancelled':
    case 'batch_started':
    case 'batch_done':
    case 'notifications_dropped':
      s.delivery.outbox.state.apply(change);
      break;
    case 'reset':
      s.auth.faults.apply(change);
      s.delivery.outages.apply(change);
      s.auth.journal.apply(change);
      s.auth.tokens.apply(change);
      s.reservations.state.apply(change);
      s.delivery.outbox.state.apply(change);
      break;
    default:
      unownedKind(change);
  }
}

/**
 * Every kind of change a store applies: all but the ones that tell of something no store keeps
 * (routing, the clock: the data dir keeps where the clock stood). A new kind lands here, and the
 * switch above does not compile until a store owns it.
 */
export type ReplayedChange = Exclude<Change, { kind: 'event_routed' | 'clock_started' | 'clock_advanced' }>;

function unownedKind(change: never): never {
  throw new Error(`no store applies change ${JSON.stringify(change)}`);
}
