/** A reservation's shapes (zod), for src/reservations and the admin contract alike. */
import { z } from 'zod';
import { BOOKING_STATUSES, EVENT_TYPES } from './constants.js';
import { instant, int, str } from './fields.js';

const bookingStatus = z.enum(BOOKING_STATUSES);

export const reservationSummaryFields = {
  bookingId: int,
  bookingNumber: str,
  status: bookingStatus,
  updatedAt: instant.describe('UpdateDate of the last notification body (emulator time)'),
  exchangedTo: int.optional(),
  exchangedFrom: int.optional(),
};
export const ReservationSummaryShape = z.object(reservationSummaryFields);

export const HistoryEntryShape = z.object({
  at: instant,
  event: z.enum([...EVENT_TYPES, 'Redeliver']),
  status: bookingStatus,
  warning: str.optional(),
});
