/**
 * The seeded notification generator (decision 0010): same options ⇒ same bytes, no wall clock.
 * Imported lazily by its callers' first use of faker (names.ts), so `serve` starts without faker.
 */
import {
  assertValidBody,
  type DeepPartial,
  type EventType,
  type NotificationBody,
  NotificationBodySchema,
} from '../contract/index.js';
import { BOOKING_ID_MAX, BOOKING_ID_MIN, type BookingShape, buildIssuedBody } from './booking.js';
import { applyOverrides } from './overrides.js';
import { deriveSeed, Rng } from './random.js';
import { exchangeBodies, withStatus } from './transitions.js';

export { EVENT_TYPES } from '../contract/index.js';
export { BOOKING_ID_MAX, BOOKING_ID_MIN, type BookingShape } from './booking.js';
export { applyOverrides } from './overrides.js';
export { deriveSeed, MAX_SEED, Rng } from './random.js';
export * as reference from './reference/index.js';
export { withStatus } from './transitions.js';
export { zulu } from './units.js';

/** Overrides as they arrive: a deep partial of the body (validated after merging). */
export type Overrides = DeepPartial<NotificationBody> | Record<string, unknown>;

export interface GenerateNotificationOptions {
  event: EventType;
  seed: number;
  /** Event time (UpdateDate), truncated to whole seconds. */
  at: Date | string | number;
  /** Merged last into the body the event creates (Issue/Void: that body; Exchange: the new one). */
  overrides?: Overrides;
  shape?: BookingShape;
  /** Issue: BookingID of the new reservation; otherwise of the preceding Issue generated internally. */
  bookingId?: number;
  /** Void/Exchange: the current body; without it an Issue from the same seed precedes the event. */
  previous?: NotificationBody;
  /** Exchange: BookingID of the new reservation (default: drawn from the seed). */
  newBookingId?: number;
}

export interface GeneratedEvent {
  /** The acted-on reservation after the event (Issue: the new one; Exchange: the old, Exchanged). */
  target: NotificationBody;
  /** Exchange only: the new Issued-Exch reservation. */
  created?: NotificationBody;
  /** The Issue generated internally before a Void or Exchange given no `previous`. */
  preceding?: NotificationBody;
}

/** Longest gap between the internal Issue and the Void/Exchange that follows it. */
export const MAX_PRECEDING_GAP_HOURS = 72;

/** Milliseconds of an event time, truncated to whole seconds. */
export function eventTimeMs(at: Date | string | number): number {
  const ms = at instanceof Date ? at.getTime() : typeof at === 'number' ? at : Date.parse(at);
  if (Number.isNaN(ms)) throw new TypeError(`invalid event time ${String(at)}: expected an ISO 8601 instant`);
  return Math.floor(ms / 1000) * 1000;
}

/** Generates the bodies one event produces, seeded and internally consistent. */
export function generateNotification(opts: GenerateNotificationOptions): GeneratedEvent {
  const atMs = eventTimeMs(opts.at);
  const finish = (body: NotificationBody) =>
    opts.overrides
      ? assertValidBody(
          NotificationBodySchema,
          applyOverrides(body, opts.overrides),
          'The body after overrides',
        )
      : body;

  if (opts.event === 'Issue') {
    return {
      target: finish(
        buildIssuedBody({ seed: opts.seed, atMs, bookingId: opts.bookingId, shape: opts.shape }),
      ),
    };
  }
  let preceding: NotificationBody | undefined;
  let previous = opts.previous;
  if (!previous) {
    const gapMs = new Rng(deriveSeed(opts.seed, 1)).int(1, MAX_PRECEDING_GAP_HOURS * 60) * 60_000;
    preceding = buildIssuedBody({
      seed: opts.seed,
      atMs: atMs - gapMs,
      bookingId: opts.bookingId,
      shape: opts.shape,
    });
    previous = preceding;
  }
  const withPreceding = preceding ? { preceding } : {};
  if (opts.event === 'Void') {
    return { target: finish(withStatus(previous, 'Voided', atMs)), ...withPreceding };
  }
  const eventSeed = deriveSeed(opts.seed, 2);
  let newBookingId = opts.newBookingId ?? new Rng(eventSeed).int(BOOKING_ID_MIN, BOOKING_ID_MAX);
  if (newBookingId === previous.Reservation.BookingID) newBookingId = (newBookingId % BOOKING_ID_MAX) + 1;
  const { old, created } = exchangeBodies(previous, { seed: eventSeed, atMs, newBookingId });
  return { target: old, created: finish(created), ...withPreceding };
}
