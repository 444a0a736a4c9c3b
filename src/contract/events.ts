/** Enumerations the specification names for reservations and events. */

/** Reservation.BookingStatus values (spec "States and transitions"). */
export const BOOKING_STATUSES = ['Issued', 'Voided', 'Exchanged', 'Issued-Exch'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Events that produce a notification (spec "Events"). */
export const EVENT_TYPES = ['Issue', 'Void', 'Exchange'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
