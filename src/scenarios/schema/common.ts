import { z } from 'zod';
import { InstantInput } from '../../clock/bounds.js';
import { DurationInput } from '../../clock/duration.js';

/** A duration: ISO 8601 (`PT1H`), short (`500ms`, `2s`, `5m`, `1h`) or a number of milliseconds, up to P366D. */
export const Duration = DurationInput;
export type Duration = z.infer<typeof Duration>;

/** An ISO 8601 instant with its zone inside the accepted range, e.g. `2026-04-27T10:00:00Z`. */
export const Instant = InstantInput;

/** A reservation: the name an earlier step gave it with `as:`, or a BookingID. */
export const BookingRef = z.union([z.string().min(1), z.number().int().positive()], {
  error: 'expected the name given with `as:` by an earlier step, or a BookingID number',
});
export type BookingRef = z.infer<typeof BookingRef>;

/** Name given with `as:` so later steps can refer to the reservation. */
export const AsName = z
  .string()
  .regex(/^[A-Za-z][\w-]*$/, 'expected a name of letters, digits, "-" or "_", starting with a letter');

/** API version; YAML reads an unquoted 1.7 as a number, so both spellings are taken. */
export const ApiVersion = z.union([z.enum(['1.6', '1.7']), z.literal(1.6), z.literal(1.7)], {
  error: 'expected "1.6" or "1.7"',
});
export type ApiVersion = z.infer<typeof ApiVersion>;

export const BOOKING_STATUSES = ['Issued', 'Voided', 'Exchanged', 'Issued-Exch'] as const;
export const BookingStatus = z.enum(BOOKING_STATUSES);

/**
 * Matches one observed value: a literal (compared deeply; `${name.bookingId}` and
 * `${name.bookingNumber}` refer to reservations named with `as:`), or an operator object.
 */
export const Matcher = z.union([
  z.strictObject({ matches: z.string().min(1).describe('regular expression the value must match') }),
  z.strictObject({ exists: z.boolean().describe('whether the value is present at all') }),
  z.strictObject({ contains: z.string().describe('substring the value must contain') }),
  z.unknown(),
]);
export type Matcher = z.infer<typeof Matcher>;

/** Field path → matcher, e.g. `Reservation.BookingStatus: Issued`, `Ticket[0].Type: ETK`. */
export const MatcherMap = z.record(z.string().min(1), Matcher);
