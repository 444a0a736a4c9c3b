import type { Change } from '../change-stream.js';
import type { KeptServices } from './snapshot.js';

/**
 * Hands a change read back from a data dir to the `apply` of the store that owns its kind (decision
 * 0212): replay runs the same code that made the change live. Reset reaches every store it forgets.
 */
export function applyReplayed(s: KeptServices, change: ReplayedChange): void {
  switch (change.kind) {
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

/** The kinds replay hands to a store's `apply` so far. */
export type ReplayedChange = Extract<
  Change,
  {
    kind:
      | 'fault_added'
      | 'fault_removed'
      | 'faults_cleared'
      | 'fault_used'
      | 'outage_added'
      | 'outage_removed'
      | 'outages_cleared'
      | 'outage_used'
      | 'outages_of_credential_removed'
      | 'call_journaled'
      | 'token_issued'
      | 'token_revoked'
      | 'reservation_saved'
      | 'notification_created'
      | 'attempt_started'
      | 'attempt_ended'
      | 'notification_cancelled'
      | 'batch_started'
      | 'batch_done'
      | 'notifications_dropped'
      | 'reset';
  }
>;

function unownedKind(change: never): never {
  throw new Error(`no store applies change ${JSON.stringify(change)}`);
}
