import type { AdminChange } from '../activity/index.js';
import type { Emulator } from '../emulator.js';
import type { eventResult } from './event-result.js';

/** Tells the live stream and the info log of an admin change (nothing is built when nobody listens). */
export function announce(emulator: Emulator, change: AdminChange, subject: string, detail?: string): void {
  const { activity } = emulator;
  if (activity.active)
    activity.publish({ kind: 'admin', change, subject, ...(detail === undefined ? {} : { detail }) });
}

/** Tells them of an applied event (Issue, Void, Exchange, manual redelivery) and where it was routed. */
export function announceEvent(emulator: Emulator, result: ReturnType<typeof eventResult>): void {
  const { activity } = emulator;
  if (!activity.active) return;
  activity.publish({
    kind: 'event',
    event: result.event,
    at: result.at,
    reservations: result.reservations,
    notifications: result.notifications.map((n) => n.id),
    routedTo: result.routedTo,
    credentials: [...new Set(result.notifications.map((n) => n.credentialId))],
  });
}
