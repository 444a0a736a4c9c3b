/** Checks around the store's events: the event input, its overrides and the allowed transitions. */
import {
  assertValidBody,
  type NotificationBody,
  NotificationBodySchema,
  NotificationBodyStrictSchema,
} from '../contract/index.js';
import { bookingNumberProblem } from '../delivery/prepare.js';
import { ConflictError, formatPath, InputError } from '../errors.js';
import { applyOverrides } from '../generate/index.js';
import { parseOr } from '../model/refusal.js';
import {
  allowedEvents,
  EVENT_REFUSAL,
  type EventInput,
  EventInputSchema,
  LIFECYCLE_FIELDS,
  TRANSITIONS,
} from './events.js';
import type { ReservationSummary } from './types.js';

/** Merges overrides (not the lifecycle's own fields) into a generated body, then validates it. */
export function finishBody(
  body: NotificationBody,
  overrides: Record<string, unknown> | undefined,
  warnings: string[],
): NotificationBody {
  if (!overrides) return assertValidBody(NotificationBodyStrictSchema, body, 'The generated body');
  const reservation = overrides.Reservation;
  if (reservation && typeof reservation === 'object') {
    for (const field of LIFECYCLE_FIELDS) {
      if (field in reservation) {
        throw new InputError(
          'override_not_allowed',
          `overrides.Reservation.${field} is set by the lifecycle and cannot be overridden; use the event type (Issue, Void, Exchange) or a manual redelivery to change the status.`,
          { path: `overrides.Reservation.${field}` },
        );
      }
    }
  }
  const merged = assertValidBody(
    NotificationBodySchema,
    applyOverrides(body, overrides),
    'The body after overrides',
  );
  const problem = bookingNumberProblem(merged.Reservation.BookingNumber);
  if (problem) throw unsendableBookingNumber(problem);
  const strict = NotificationBodyStrictSchema.safeParse(merged);
  if (!strict.success) {
    const paths = strict.error.issues
      .flatMap((i) =>
        i.code === 'unrecognized_keys' ? i.keys.map((k) => formatPath([...i.path, k])) : [formatPath(i.path)],
      )
      .join(', ');
    warnings.push(`The overrides add members the spec does not define (${paths}); they are sent as given.`);
  }
  return merged;
}

/** The error for a BookingNumber override that cannot be sent in the Content-Disposition filename. */
export function unsendableBookingNumber(
  problem: string,
  path = 'overrides.Reservation.BookingNumber',
): InputError {
  return new InputError('override_unsendable', `${path} ${problem}.`, { path });
}

/** Parses an event as the admin API and scenarios send it, naming the field that is wrong. */
export function parseEventInput(raw: unknown): EventInput {
  return parseOr(EventInputSchema, EVENT_REFUSAL, raw);
}

/** The error for an event the reservation's status does not allow (product rule "Lifecycle"). */
export function refused(event: 'Void' | 'Exchange', current: ReservationSummary): ConflictError {
  const allowed = allowedEvents(current.status);
  return new ConflictError(
    'transition_refused',
    `${event} is not allowed on reservation ${current.bookingId}: its BookingStatus is ${current.status}. ${event} applies to ${TRANSITIONS[event].join(' or ')}; allowed on ${current.status}: ${allowed.length ? allowed.join(', ') : 'no event'} (a manual redelivery may notify any status).`,
    { bookingId: current.bookingId, status: current.status, accepted: allowed },
  );
}
