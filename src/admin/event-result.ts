import type { DispatchResult } from '../delivery/index.js';
import type { LifecycleResult } from '../reservations/index.js';

/** The EventResult of docs/admin-api.md: what the lifecycle changed plus where it was routed. */
export function eventResult(lifecycle: LifecycleResult, dispatch: DispatchResult) {
  return {
    event: lifecycle.event,
    at: lifecycle.at,
    reservations: lifecycle.reservations,
    notifications: dispatch.notifications,
    routedTo: dispatch.routedTo,
    message: dispatch.message,
    warnings: [...lifecycle.warnings, ...dispatch.warnings],
  };
}
