/** Enumerations the specification names for reservations and events (defined in src/model). */
export { BOOKING_STATUSES, type BookingStatus, EVENT_TYPES, type EventType } from '../model/constants.js';
