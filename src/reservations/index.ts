/** Reservations: the store and its lifecycle transitions (product rule "Lifecycle"). */
export {
  allowedEvents,
  EVENT_TYPES,
  type EventInput,
  EventInputSchema,
  type EventType,
  LIFECYCLE_FIELDS,
  RESULTING_STATUS,
  TRANSITIONS,
} from './events.js';
export { ReservationStore, type ReservationStoreOptions, type StoredReservation } from './store.js';
export type {
  ExchangeNotifies,
  HistoryEntry,
  LifecycleResult,
  Reservation,
  ReservationSummary,
} from './types.js';
