import type { Change, ChangeStream } from '../change-stream.js';
import { toSummary } from '../delivery/notification.js';
import type { ActivityBus } from './bus.js';
import type { Activity } from './types.js';

const apiOf = (versions: readonly string[]) => `(API ${versions.join(', ')})`;

/**
 * The activity a change is news of (docs/admin-api.md "Live stream"), or none: what only the data
 * dir needs (a batch started, a rule used up, a reservation saved: its event
 * says it) is not news. Exhaustive: a new kind of change must say whether it is.
 */
export function activityOf(c: Change): Activity | undefined {
  switch (c.kind) {
    case 'user_added':
      return {
        kind: 'admin',
        change: 'user_added',
        subject: c.user.username,
        detail: apiOf(c.user.versions),
      };
    case 'user_replaced':
      return {
        kind: 'admin',
        change: 'user_changed',
        subject: c.user.username,
        detail: apiOf(c.user.versions),
      };
    case 'user_removed':
      return { kind: 'admin', change: 'user_removed', subject: c.username };
    case 'credential_added':
      return {
        kind: 'admin',
        change: 'credential_added',
        subject: c.credential.id,
        detail: `→ ${c.credential.url}`,
      };
    case 'credential_replaced':
      return {
        kind: 'admin',
        change: 'credential_changed',
        subject: c.credential.id,
        detail: `→ ${c.credential.url}`,
      };
    case 'credential_removed':
      return { kind: 'admin', change: 'credential_removed', subject: c.id };
    case 'trust_added':
      return { kind: 'admin', change: 'ca_trusted', subject: c.certificate.subject };
    case 'trust_removed':
      return { kind: 'admin', change: 'ca_untrusted', subject: c.certificate.subject };
    case 'fault_added':
      return { kind: 'admin', change: 'fault_added', subject: c.fault.id, detail: c.fault.kind };
    case 'fault_removed':
      return { kind: 'admin', change: 'faults_removed', subject: c.id };
    case 'faults_cleared':
      return { kind: 'admin', change: 'faults_removed', subject: 'all' };
    case 'outage_added':
      return {
        kind: 'admin',
        change: 'outage_added',
        subject: c.outage.id,
        detail: c.outage.credentialId ?? 'every credential',
      };
    case 'outage_removed':
      return { kind: 'admin', change: 'outages_removed', subject: c.id };
    case 'outages_cleared':
      return { kind: 'admin', change: 'outages_removed', subject: 'all' };
    case 'reset':
      return {
        kind: 'admin',
        change: 'reset',
        subject: 'reservations, notifications, tokens, journal and faults forgotten',
      };
    case 'event_routed': {
      const { kind: _kind, ...event } = c;
      return { kind: 'event', ...event };
    }
    case 'notification_created':
      return { kind: 'notification_created', notification: toSummary(c.notification) };
    case 'notification_cancelled':
      return { kind: 'notification_changed', notification: toSummary(c.notification) };
    case 'attempt_started':
      return { kind: 'attempt_started', notification: toSummary(c.notification), attempt: c.attempt };
    case 'attempt_ended':
      return { kind: 'attempt', notification: toSummary(c.notification), attempt: c.attempt };
    case 'notifications_dropped':
      return { kind: 'notifications_dropped', ids: c.ids, dropped: c.dropped };
    case 'batch_done':
      return { kind: 'batch', batch: c.result };
    case 'clock_advanced':
      return { kind: 'clock', from: c.from, to: c.to, batches: c.batches };
    case 'call_journaled':
      return { kind: 'token', entry: c.entry };
    case 'token_revoked':
      return { kind: 'admin', change: 'token_revoked', subject: c.token };
    case 'fault_used':
    case 'outage_used':
    case 'outages_of_credential_removed':
    case 'token_issued':
    case 'reservation_saved':
    case 'batch_started':
    case 'clock_started':
      return undefined;
    default:
      return unknownChange(c);
  }
}

function unknownChange(c: never): undefined {
  throw new Error(`no activity mapping for change ${JSON.stringify(c)}`);
}

/**
 * Derives the activity bus from the change stream: every change that is news is published. With
 * nobody listening (no stream client, log above info) a change costs one property read here.
 */
export function announceChanges(changes: ChangeStream, activity: ActivityBus): () => void {
  return changes.observe((change) => {
    if (!activity.active) return;
    const a = activityOf(change);
    if (a) activity.publish(a);
  });
}
