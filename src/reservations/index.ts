/** Reservations: the store and its lifecycle transitions (product rule "Lifecycle"). */
export type { EventType } from './events.js';
export { ReservationStore, reservationSummary } from './store.js';
export type { LifecycleResult } from './types.js';
