/** Reservations: the store and its lifecycle transitions (DESIGN "Lifecycle"). */
export type { EventType } from './events.js';
export { ReservationStore } from './store.js';
export type { LifecycleResult } from './types.js';
