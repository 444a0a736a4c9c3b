/** Event input (admin API `POST /__admin/events`, scenario steps) and the lifecycle rule table. */
import { z } from 'zod';
import { type BookingStatus, EVENT_TYPES, type EventType } from '../contract/index.js';
import { formatPath } from '../errors.js';
import { MAX_SEED } from '../generate/random.js';
import type { Refusal } from '../model/refusal.js';

export { EVENT_TYPES, type EventType };

/** One event to apply: `bookingId` is required for Void and Exchange. */
export const EventInputSchema = z.strictObject({
  type: z.enum(EVENT_TYPES, { error: `expected one of ${EVENT_TYPES.join(', ')}` }),
  bookingId: z.number().int().positive().optional(),
  overrides: z.record(z.string(), z.unknown()).optional(),
  seed: z.number().int().min(0).max(MAX_SEED).optional(),
});
export type EventInput = z.infer<typeof EventInputSchema>;

/** How an event its schema refuses is answered. */
export const EVENT_REFUSAL: Refusal = {
  code: 'event_invalid',
  words: (issue, message) => ({
    message: `Invalid event at ${formatPath(issue.path)}: ${message}. Expected {"type": "Issue"|"Void"|"Exchange", "bookingId"?: positive integer, "overrides"?: object, "seed"?: integer 0…2147483647}.`,
    details: { path: formatPath(issue.path), accepted: ['Issue', 'Void', 'Exchange'] },
  }),
};

/**
 * Statuses each event may start from (product rule "Lifecycle"; the spec shows no transitions). Issue
 * creates a reservation, so it has no source status.
 */
export const TRANSITIONS: Readonly<Record<Exclude<EventType, 'Issue'>, readonly BookingStatus[]>> = {
  Void: ['Issued', 'Issued-Exch'],
  Exchange: ['Issued', 'Issued-Exch'],
};

/** Events allowed on a reservation in `status`. */
export function allowedEvents(status: BookingStatus): Array<Exclude<EventType, 'Issue'>> {
  return (Object.keys(TRANSITIONS) as Array<Exclude<EventType, 'Issue'>>).filter((e) =>
    TRANSITIONS[e].includes(status),
  );
}

/** Reservation members the lifecycle owns; overrides may not set them. */
export const LIFECYCLE_FIELDS = ['BookingStatus', 'BookingID', 'ExchangedTo', 'ExchangedFrom'] as const;
