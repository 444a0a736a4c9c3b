/** Reservations: the store and its lifecycle transitions (product rule "Lifecycle"). */
export { parseEventInput } from './event-checks.js';
export type { EventType } from './events.js';
export { ReservationStore, type StoredReservation } from './store.js';
export type { LifecycleResult } from './types.js';
