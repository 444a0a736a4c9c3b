/**
 * The emulator's reservations and their lifecycle (DESIGN "Lifecycle"). Every event gets a seed
 * derived from (store seed, event sequence number) unless it brings its own, and every timestamp
 * comes from the injected clock, so the same seed, events and clock start give the same bytes.
 */
import type { Clock } from '../clock/index.js';
import {
  assertValidBody,
  BOOKING_STATUSES,
  type BookingStatus,
  type NotificationBody,
  NotificationBodySchema,
  NotificationBodyStrictSchema,
} from '../contract/index.js';
import { ConflictError, formatPath, InputError, NotFoundError } from '../errors.js';
import {
  applyOverrides,
  BOOKING_ID_MAX,
  BOOKING_ID_MIN,
  deriveSeed,
  eventTimeMs,
  generateNotification,
  Rng,
  withStatus,
  zulu,
} from '../generate/index.js';

import { allowedEvents, type EventInput, EventInputSchema, LIFECYCLE_FIELDS, TRANSITIONS } from './events.js';
import type { ExchangeNotifies, LifecycleResult, Reservation, ReservationSummary } from './types.js';

export interface ReservationStoreOptions {
  /** Only `now()` is read. */
  clock: Pick<Clock, 'now'>;
  seed: number;
  exchangeNotifies: ExchangeNotifies;
}

/** Reservations by BookingID, with the transitions Issue, Void, Exchange and manual redelivery. */
export class ReservationStore {
  private readonly records = new Map<number, Reservation>();
  private sequence = 0;

  constructor(private readonly options: ReservationStoreOptions) {}

  /** Applies one event and answers what changed and which bodies to notify. */
  apply(raw: EventInput): LifecycleResult {
    const input = parseEventInput(raw);
    const seed = input.seed ?? deriveSeed(this.options.seed, ++this.sequence);
    const atMs = eventTimeMs(this.options.clock.now());
    const at = zulu(atMs);
    const warnings: string[] = [];
    const finish = (body: NotificationBody) => this.finishBody(body, input.overrides, warnings);

    if (input.type === 'Issue') {
      if (input.bookingId !== undefined && this.records.has(input.bookingId)) {
        throw new ConflictError(
          'booking_exists',
          `Reservation ${input.bookingId} already exists; omit bookingId to get a fresh one, or Void/Exchange it instead.`,
          { bookingId: input.bookingId },
        );
      }
      const bookingId = input.bookingId ?? this.freshBookingId(seed);
      const body = finish(generateNotification({ event: 'Issue', seed, at: atMs, bookingId }).target);
      const created = this.save(body, { at, event: 'Issue', status: 'Issued' });
      return { event: 'Issue', at, reservations: [created], emit: [{ bookingId, body }], warnings };
    }

    const current = this.require(input.bookingId, input.type);
    if (!TRANSITIONS[input.type].includes(current.status)) throw refused(input.type, current);

    if (input.type === 'Void') {
      const body = finish(withStatus(current.body, 'Voided', atMs));
      const changed = this.save(body, { at, event: 'Void', status: 'Voided' });
      return {
        event: 'Void',
        at,
        reservations: [changed],
        emit: [{ bookingId: changed.bookingId, body }],
        warnings,
      };
    }

    const newBookingId = this.freshBookingId(deriveSeed(seed, 3));
    const generated = generateNotification({
      event: 'Exchange',
      seed,
      at: atMs,
      previous: current.body,
      newBookingId,
    });
    const oldBody = assertValidBody(NotificationBodySchema, generated.target, 'The exchanged body');
    const newBody = finish(generated.created!);
    const old = this.save(oldBody, { at, event: 'Exchange', status: 'Exchanged' });
    const created = this.save(newBody, { at, event: 'Exchange', status: 'Issued-Exch' });
    const notifies = this.options.exchangeNotifies;
    const emit = [
      ...(notifies !== 'new' ? [{ bookingId: old.bookingId, body: oldBody }] : []),
      ...(notifies !== 'old' ? [{ bookingId: created.bookingId, body: newBody }] : []),
    ];
    return { event: 'Exchange', at, reservations: [old, created], emit, warnings };
  }

  /** Manual redelivery (spec "Endpoints 2"): sets `status` and notifies; another status is a warning. */
  redeliver(bookingId: number, status: BookingStatus): LifecycleResult {
    if (!BOOKING_STATUSES.includes(status)) {
      throw new InputError(
        'status_invalid',
        `Unknown BookingStatus "${String(status)}"; accepted: ${BOOKING_STATUSES.join(', ')}.`,
        { path: 'status', accepted: BOOKING_STATUSES },
      );
    }
    const current = this.require(bookingId, 'Redeliver');
    const atMs = eventTimeMs(this.options.clock.now());
    const at = zulu(atMs);
    const warnings: string[] = [];
    if (status !== current.status) {
      warnings.push(
        `Reservation ${bookingId} was ${current.status} and is now ${status}: the spec ("Endpoints 2") recommends redelivering with the current status so the booking is not changed unintentionally.`,
      );
    }
    const body = withStatus(current.body, status, atMs);
    const changed = this.save(body, { at, event: 'Redeliver', status, warning: warnings[0] });
    return { event: 'Redeliver', at, reservations: [changed], emit: [{ bookingId, body }], warnings };
  }

  /** The reservation with this BookingID, with its last body and history. */
  get(bookingId: number): Reservation | undefined {
    return this.records.get(bookingId);
  }

  /** Every reservation, in the order they were created. */
  list(): ReservationSummary[] {
    return [...this.records.values()].map(summary);
  }

  /** Forgets every reservation and restarts the event sequence (same seed ⇒ same bodies again). */
  reset(): void {
    this.records.clear();
    this.sequence = 0;
  }

  private require(bookingId: number | undefined, event: string): Reservation {
    if (bookingId === undefined) {
      throw new InputError(
        'booking_id_required',
        `${event} needs "bookingId": the BookingID of an existing reservation.`,
        {
          path: 'bookingId',
        },
      );
    }
    const record = this.records.get(bookingId);
    if (!record) {
      const known = [...this.records.keys()].slice(-5);
      throw new NotFoundError(
        'reservation_not_found',
        `No reservation with BookingID ${bookingId}. ${known.length ? `Latest known: ${known.join(', ')}.` : 'Issue one first (event type Issue).'}`,
        { bookingId },
      );
    }
    return record;
  }

  /** A BookingID drawn from `seed`, moved to the next free one if taken. */
  private freshBookingId(seed: number): number {
    let id = new Rng(seed).int(BOOKING_ID_MIN, BOOKING_ID_MAX);
    while (this.records.has(id)) id = id >= BOOKING_ID_MAX ? BOOKING_ID_MIN : id + 1;
    return id;
  }

  /** Merges overrides (not the lifecycle's own fields), then validates the body. */
  private finishBody(
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
    const strict = NotificationBodyStrictSchema.safeParse(merged);
    if (!strict.success) {
      const paths = strict.error.issues
        .flatMap((i) =>
          i.code === 'unrecognized_keys'
            ? i.keys.map((k) => formatPath([...i.path, k]))
            : [formatPath(i.path)],
        )
        .join(', ');
      warnings.push(`The overrides add members the spec does not define (${paths}); they are sent as given.`);
    }
    return merged;
  }

  private save(body: NotificationBody, entry: Reservation['history'][number]): ReservationSummary {
    const r = body.Reservation;
    const previous = this.records.get(r.BookingID);
    const record: Reservation = {
      bookingId: r.BookingID,
      bookingNumber: r.BookingNumber,
      status: entry.status,
      updatedAt: r.UpdateDate,
      ...(r.ExchangedTo !== undefined ? { exchangedTo: r.ExchangedTo } : {}),
      ...(r.ExchangedFrom !== undefined ? { exchangedFrom: r.ExchangedFrom } : {}),
      body,
      history: [
        ...(previous?.history ?? []),
        entry.warning ? entry : { at: entry.at, event: entry.event, status: entry.status },
      ],
    };
    this.records.set(r.BookingID, record);
    return summary(record);
  }
}

function summary(r: Reservation): ReservationSummary {
  const { body: _body, history: _history, ...rest } = r;
  return rest;
}

function parseEventInput(raw: unknown): EventInput {
  const parsed = EventInputSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError(
    'event_invalid',
    `Invalid event at ${formatPath(issue.path)}: ${issue.message}. Expected {"type": "Issue"|"Void"|"Exchange", "bookingId"?: positive integer, "overrides"?: object, "seed"?: integer 0…2147483647}.`,
    { path: formatPath(issue.path), accepted: ['Issue', 'Void', 'Exchange'] },
  );
}

function refused(event: 'Void' | 'Exchange', current: Reservation): ConflictError {
  const allowed = allowedEvents(current.status);
  return new ConflictError(
    'transition_refused',
    `${event} is not allowed on reservation ${current.bookingId}: its BookingStatus is ${current.status}. ${event} applies to ${TRANSITIONS[event].join(' or ')}; allowed on ${current.status}: ${allowed.length ? allowed.join(', ') : 'no event'} (a manual redelivery may notify any status).`,
    { bookingId: current.bookingId, status: current.status, accepted: allowed },
  );
}
