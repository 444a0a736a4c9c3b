/**
 * The emulator's reservations and their lifecycle (product rule "Lifecycle"). Every event gets a seed
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
  packBody,
  type StoredBody,
  unpackBody,
} from '../contract/index.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import {
  BOOKING_ID_MAX,
  BOOKING_ID_MIN,
  deriveSeed,
  eventTimeMs,
  generateNotification,
  Rng,
  withStatus,
  zulu,
} from '../generate/index.js';
import { APPLY_ONLY, type ChangeSink, lazily, type ResetChange } from '../model/change-sink.js';
import { finishBody, parseEventInput, refused } from './event-checks.js';
import { type EventInput, TRANSITIONS } from './events.js';
import type {
  ExchangeNotifies,
  HistoryEntry,
  LifecycleResult,
  Reservation,
  ReservationSummary,
} from './types.js';

/**
 * A reservation as the store keeps it: the body packed (gzipped JSON, ~1.3 KB) instead of parsed
 * (~5 KiB of objects), the same Buffer the outbox sends; parsed only when an event or a reader needs it.
 */
export interface StoredReservation extends ReservationSummary {
  gz: StoredBody;
  history: HistoryEntry[];
}

export interface ReservationStoreOptions {
  /** Only `now()` is read. */
  clock: Pick<Clock, 'now'>;
  seed: number;
  exchangeNotifies: ExchangeNotifies;
  /** Told of every reservation saved (src/change-stream.ts). */
  changes?: ChangeSink<ReservationChange>;
}

/** What a ReservationStore changed: one reservation saved, and the event sequence then. */
/**
 * A reservation saved, and the event sequence reached. `historyFrom`: the record's history holds only
 * the entries from there on, the ones before are the reservation's as it was (a journal's record of a
 * second save carries only what it appended).
 */
export type ReservationChange = {
  kind: 'reservation_saved';
  record: StoredReservation;
  sequence: number;
  historyFrom?: number;
};

/** The reservations and the event sequence; `apply` is their one writer (decision 0212). */
export class ReservationRecords {
  readonly byId = new Map<number, StoredReservation>();
  sequence = 0;

  /** Live and at a restart: a save stores the record; reset forgets every one and the sequence. */
  apply(change: ReservationChange | ResetChange): void {
    switch (change.kind) {
      case 'reservation_saved': {
        const { record, sequence, historyFrom } = change;
        const history =
          historyFrom === undefined
            ? record.history
            : (this.byId.get(record.bookingId)?.history ?? []).slice(0, historyFrom).concat(record.history);
        this.byId.set(record.bookingId, history === record.history ? record : { ...record, history });
        if (sequence > this.sequence) this.sequence = sequence;
        break;
      }
      case 'reset':
        this.byId.clear();
        this.sequence = 0;
        break;
    }
  }

  /**
   * The reservations, in the order they were created, as the changes that save them whole
   * (`historyFrom` 0), with the event sequence (`ChangeOwner`, decision 0274). A stored record is
   * replaced, never changed: the cut holds references.
   */
  asChanges(): Iterable<ReservationChange> {
    const { sequence } = this;
    return lazily([...this.byId.values()], (record): ReservationChange[] => [
      { kind: 'reservation_saved', record, sequence, historyFrom: 0 },
    ]);
  }
}

/** Reservations by BookingID, with the transitions Issue, Void, Exchange and manual redelivery. */
export class ReservationStore {
  /** The state: what `apply` of a change writes (live and at a restart). */
  readonly state = new ReservationRecords();
  private readonly records = this.state.byId;

  constructor(private readonly options: ReservationStoreOptions) {}

  /** Applies one event and answers what changed and which bodies to notify. */
  apply(raw: EventInput): LifecycleResult {
    const input = parseEventInput(raw);
    // An event without a seed of its own draws the next of the sequence (kept by its save).
    const sequence = this.state.sequence + (input.seed === undefined ? 1 : 0);
    const seed = input.seed ?? deriveSeed(this.options.seed, sequence);
    const atMs = eventTimeMs(this.options.clock.now());
    const at = zulu(atMs);
    const warnings: string[] = [];
    const finish = (body: NotificationBody) => finishBody(body, input.overrides, warnings);

    if (input.type === 'Issue') {
      if (input.bookingId !== undefined && this.records.has(input.bookingId)) {
        throw new ConflictError(
          'booking_exists',
          `Reservation ${input.bookingId} already exists; omit bookingId to get a fresh one, or Void/Exchange it instead.`,
          { bookingId: input.bookingId },
        );
      }
      const bookingId = input.bookingId ?? this.freshBookingId(seed);
      const generated = generateNotification({ event: 'Issue', seed, at: atMs, bookingId }).target;
      // Without overrides the strict parse is skipped: the generator's bodies satisfy the strict
      // schema (test/generate-properties.test.ts) and the parse answers them byte for byte
      // (test/generate-fast-path.test.ts), so it only cost time: ~20% of the CPU of an Issue event
      // posted through the admin API (decision 0032).
      const body = input.overrides ? finish(generated) : generated;
      const created = this.save(sequence, body, { at, event: 'Issue', status: 'Issued' });
      return {
        event: 'Issue',
        at,
        reservations: [reservationSummary(created)],
        emit: [{ bookingId, body, gz: created.gz }],
        warnings,
      };
    }

    const current = this.require(input.bookingId, input.type);
    if (!TRANSITIONS[input.type].includes(current.status)) throw refused(input.type, current);

    if (input.type === 'Void') {
      const body = finish(withStatus(unpackBody(current.gz), 'Voided', atMs));
      const changed = this.save(sequence, body, { at, event: 'Void', status: 'Voided' });
      return {
        event: 'Void',
        at,
        reservations: [reservationSummary(changed)],
        emit: [{ bookingId: changed.bookingId, body, gz: changed.gz }],
        warnings,
      };
    }

    const newBookingId = this.freshBookingId(deriveSeed(seed, 3));
    const generated = generateNotification({
      event: 'Exchange',
      seed,
      at: atMs,
      previous: unpackBody(current.gz),
      newBookingId,
    });
    const oldBody = assertValidBody(NotificationBodySchema, generated.target, 'The exchanged body');
    const newBody = finish(generated.created!);
    const old = this.save(sequence, oldBody, { at, event: 'Exchange', status: 'Exchanged' });
    const created = this.save(sequence, newBody, { at, event: 'Exchange', status: 'Issued-Exch' });
    const notifies = this.options.exchangeNotifies;
    const emit = [
      ...(notifies !== 'new' ? [{ bookingId: old.bookingId, body: oldBody, gz: old.gz }] : []),
      ...(notifies !== 'old' ? [{ bookingId: created.bookingId, body: newBody, gz: created.gz }] : []),
    ];
    return {
      event: 'Exchange',
      at,
      reservations: [reservationSummary(old), reservationSummary(created)],
      emit,
      warnings,
    };
  }

  /**
   * Manual redelivery, spec "2. Manual redelivery (servicing tool, not an HTTP operation of this interface)":
   * sets `status` and notifies; another status is a warning.
   */
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
    const body = withStatus(unpackBody(current.gz), status, atMs);
    const changed = this.save(this.state.sequence, body, {
      at,
      event: 'Redeliver',
      status,
      warning: warnings[0],
    });
    return {
      event: 'Redeliver',
      at,
      reservations: [reservationSummary(changed)],
      emit: [{ bookingId, body, gz: changed.gz }],
      warnings,
    };
  }

  /** The reservation with this BookingID, with its last body (parsed afresh) and history. */
  get(bookingId: number): Reservation | undefined {
    const record = this.records.get(bookingId);
    if (!record) return undefined;
    const { gz, history, ...rest } = record;
    return { ...rest, body: unpackBody(gz), history };
  }

  /** Every reservation, in the order they were created. */
  list(): ReservationSummary[] {
    return [...this.records.values()].map(reservationSummary);
  }

  /** The stored form of one reservation, and the event sequence number (a data dir writes both: decision 0080). */
  stored(bookingId: number): { record: StoredReservation; sequence: number } | undefined {
    const record = this.records.get(bookingId);
    return record && { record, sequence: this.state.sequence };
  }

  /** Every stored reservation, in the order they were created, and the event sequence number. */
  storedAll(): { records: IterableIterator<StoredReservation>; sequence: number } {
    return { records: this.records.values(), sequence: this.state.sequence };
  }

  private require(bookingId: number | undefined, event: string): StoredReservation {
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

  private save(sequence: number, body: NotificationBody, entry: HistoryEntry): StoredReservation {
    const r = body.Reservation;
    const previous = this.records.get(r.BookingID);
    const record: StoredReservation = {
      bookingId: r.BookingID,
      bookingNumber: r.BookingNumber,
      status: entry.status,
      updatedAt: r.UpdateDate,
      ...(r.ExchangedTo !== undefined ? { exchangedTo: r.ExchangedTo } : {}),
      ...(r.ExchangedFrom !== undefined ? { exchangedFrom: r.ExchangedFrom } : {}),
      gz: packBody(body),
      // concat, not spread: V8 gives a spread array spare capacity (185 bytes for one entry, not 56),
      // which 100,000 reservations would all carry.
      history: (previous?.history ?? []).concat([
        {
          // The same instant as updatedAt in the usual case: one string for both.
          at: entry.at === r.UpdateDate ? r.UpdateDate : entry.at,
          event: entry.event,
          status: entry.status,
          ...(entry.warning ? { warning: entry.warning } : {}),
        },
      ]),
    };
    // Kept before it is stored: a reservation the data dir could not keep is never answered.
    const changes: ChangeSink<ReservationChange> = this.options.changes ?? APPLY_ONLY;
    changes.emit({ kind: 'reservation_saved', record, sequence }, this.state);
    return record;
  }
}

/** A stored reservation as lists show it: without its body and history. */
export function reservationSummary(r: StoredReservation): ReservationSummary {
  const { gz: _gz, history: _history, ...rest } = r;
  return rest;
}
