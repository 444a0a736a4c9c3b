import { describe, expect, it } from 'vitest';
import { unpackBody } from '../contract/index.js';
import { ConflictError, InputError, NotFoundError } from '../errors.js';
import { RESET } from '../model/change-sink.js';
import { ReservationStore } from './index.js';

/** A store on a clock the test moves by hand. */
function storeAt(iso: string, options: { seed?: number; exchangeNotifies?: 'new' | 'old' | 'both' } = {}) {
  let now = new Date(iso);
  const store = new ReservationStore({
    clock: { now: () => now },
    seed: options.seed ?? 42,
    exchangeNotifies: options.exchangeNotifies ?? 'both',
  });
  return {
    store,
    moveTo(next: string) {
      now = new Date(next);
    },
  };
}

describe('ReservationStore', () => {
  it('issues a reservation whose body carries the status, the BookingID and the event time', () => {
    const { store } = storeAt('2026-04-27T10:00:00.750Z');
    const result = store.apply({ type: 'Issue' });
    const [summary] = result.reservations;
    expect(result.at).toBe('2026-04-27T10:00:00Z');
    expect(summary).toMatchObject({ status: 'Issued', updatedAt: '2026-04-27T10:00:00Z' });
    expect(result.emit).toHaveLength(1);
    expect(result.emit[0]!.body.Reservation).toMatchObject({
      BookingStatus: 'Issued',
      BookingID: summary!.bookingId,
      UpdateDate: '2026-04-27T10:00:00Z',
      TicketingDate: '2026-04-27T10:00:00Z',
    });
    expect(store.get(summary!.bookingId)?.history).toEqual([
      { at: '2026-04-27T10:00:00Z', event: 'Issue', status: 'Issued' },
    ]);
  });

  it('voids an issued reservation and refuses to void it twice, naming the status and allowed events', () => {
    const { store, moveTo } = storeAt('2026-04-27T10:00:00Z');
    const id = store.apply({ type: 'Issue' }).reservations[0]!.bookingId;
    moveTo('2026-04-27T12:00:00Z');
    const voided = store.apply({ type: 'Void', bookingId: id });
    expect(voided.emit[0]!.body.Reservation).toMatchObject({
      BookingStatus: 'Voided',
      UpdateDate: '2026-04-27T12:00:00Z',
    });
    expect(voided.emit[0]!.body.Reservation.TicketingDate).toBe('2026-04-27T10:00:00Z');
    const second = (() => {
      try {
        store.apply({ type: 'Void', bookingId: id });
      } catch (err) {
        return err;
      }
    })();
    expect(second).toBeInstanceOf(ConflictError);
    expect((second as ConflictError).status).toBe(409);
    expect((second as ConflictError).message).toMatch(/BookingStatus is Voided.*Issued or Issued-Exch/);
  });

  it('exchanges into a new Issued-Exch reservation linked both ways and notifies old then new', () => {
    const { store, moveTo } = storeAt('2026-04-27T10:00:00Z');
    const oldId = store.apply({ type: 'Issue' }).reservations[0]!.bookingId;
    moveTo('2026-04-28T09:30:00Z');
    const result = store.apply({ type: 'Exchange', bookingId: oldId });
    const [old, created] = result.reservations;
    expect(old).toMatchObject({ bookingId: oldId, status: 'Exchanged', exchangedTo: created!.bookingId });
    expect(created).toMatchObject({ status: 'Issued-Exch', exchangedFrom: oldId });
    expect(created!.bookingId).not.toBe(oldId);
    expect(result.emit.map((e) => e.body.Reservation.BookingStatus)).toEqual(['Exchanged', 'Issued-Exch']);
    expect(store.list().map((r) => r.status)).toEqual(['Exchanged', 'Issued-Exch']);
    // The new reservation may be exchanged or voided again; the old one may not.
    expect(() => store.apply({ type: 'Exchange', bookingId: oldId })).toThrow(ConflictError);
    expect(store.apply({ type: 'Void', bookingId: created!.bookingId }).reservations[0]!.status).toBe(
      'Voided',
    );
  });

  it.each([
    ['new', ['Issued-Exch']],
    ['old', ['Exchanged']],
  ] as const)('notifies only the %s reservation of an Exchange when told so', (which, statuses) => {
    const { store } = storeAt('2026-04-27T10:00:00Z', { exchangeNotifies: which });
    const id = store.apply({ type: 'Issue' }).reservations[0]!.bookingId;
    const result = store.apply({ type: 'Exchange', bookingId: id });
    expect(result.emit.map((e) => e.body.Reservation.BookingStatus)).toEqual(statuses);
    expect(result.reservations).toHaveLength(2);
  });

  it('needs a bookingId for Void and Exchange and says when it is unknown', () => {
    const { store } = storeAt('2026-04-27T10:00:00Z');
    expect(() => store.apply({ type: 'Void' })).toThrow(InputError);
    expect(() => store.apply({ type: 'Exchange', bookingId: 123 })).toThrow(NotFoundError);
    expect(() => store.apply({ type: 'Refund' } as never)).toThrow(/Issue, Void, Exchange/);
  });

  it('merges overrides last, refuses lifecycle fields and names the path of an invalid result', () => {
    const { store } = storeAt('2026-04-27T10:00:00Z');
    const result = store.apply({
      type: 'Issue',
      overrides: { Reservation: { PCCBook: 'AAA1' }, Pax: [{ FirstName: 'Ada' }] },
    });
    expect(result.emit[0]!.body.Reservation.PCCBook).toBe('AAA1');
    expect(result.emit[0]!.body.Pax[0]!.FirstName).toBe('Ada');
    expect(() =>
      store.apply({ type: 'Issue', overrides: { Reservation: { BookingStatus: 'Voided' } } }),
    ).toThrow(/overrides\.Reservation\.BookingStatus/);
    let error: unknown;
    try {
      store.apply({ type: 'Issue', overrides: { Reservation: { UpdateDate: 'yesterday' } } });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).details.path).toBe('Reservation.UpdateDate');
  });

  it('warns about members the spec does not define but sends them', () => {
    const { store } = storeAt('2026-04-27T10:00:00Z');
    const result = store.apply({ type: 'Issue', overrides: { Reservation: { Extra: 'x' } } });
    expect(result.warnings.join()).toMatch(/Reservation\.Extra/);
    expect((result.emit[0]!.body.Reservation as Record<string, unknown>).Extra).toBe('x');
  });

  it('redelivers with any status, warning when it differs from the current one', () => {
    const { store, moveTo } = storeAt('2026-04-27T10:00:00Z');
    const id = store.apply({ type: 'Issue' }).reservations[0]!.bookingId;
    moveTo('2026-04-27T11:00:00Z');
    const same = store.redeliver(id, 'Issued');
    expect(same.warnings).toEqual([]);
    expect(same.emit[0]!.body.Reservation.UpdateDate).toBe('2026-04-27T11:00:00Z');
    const other = store.redeliver(id, 'Voided');
    expect(other.warnings[0]).toMatch(/was Issued and is now Voided/);
    expect(store.get(id)?.status).toBe('Voided');
    expect(store.get(id)?.history.map((h) => h.event)).toEqual(['Issue', 'Redeliver', 'Redeliver']);
    expect(() => store.redeliver(id, 'Refunded' as never)).toThrow(/Issued, Voided, Exchanged, Issued-Exch/);
  });

  it('produces byte-identical bodies for the same seed, events and clock, and different ones for another seed', () => {
    const run = (seed: number) => {
      const { store, moveTo } = storeAt('2026-04-27T10:00:00Z', { seed });
      const a = store.apply({ type: 'Issue' });
      moveTo('2026-04-27T10:05:00Z');
      const b = store.apply({ type: 'Exchange', bookingId: a.reservations[0]!.bookingId });
      return JSON.stringify([...a.emit, ...b.emit]);
    };
    expect(run(7)).toBe(run(7));
    expect(run(7)).not.toBe(run(8));
  });

  it('keeps BookingIDs unique and starts over after reset', () => {
    const { store } = storeAt('2026-04-27T10:00:00Z');
    const ids = Array.from(
      { length: 200 },
      (_, i) => store.apply({ type: 'Issue', seed: i % 3 }).reservations[0]!.bookingId,
    );
    expect(new Set(ids).size).toBe(200);
    const first = store.list()[0];
    store.state.apply(RESET);
    expect(store.list()).toEqual([]);
    expect(store.apply({ type: 'Issue', seed: 0 }).reservations[0]!.bookingId).toBe(first!.bookingId);
  });
});

describe('ReservationStore memory (decision 0018)', () => {
  it('keeps each body packed and answers it parsed, equal to the emitted body, a fresh copy per read', () => {
    const { store } = storeAt('2026-04-27T10:00:00Z');
    const { emit } = store.apply({ type: 'Issue' });
    const { bookingId, body, gz } = emit[0]!;
    expect(unpackBody(gz)).toEqual(body);
    const first = store.get(bookingId)!;
    expect(first.body).toEqual(body);
    first.body.Reservation.BookingNumber = 'CHANGED';
    expect(store.get(bookingId)!.body.Reservation.BookingNumber).toBe(body.Reservation.BookingNumber);
    // The admin API answers the reservation as JSON: the body is in it.
    expect(JSON.parse(JSON.stringify(store.get(bookingId))).body).toEqual(body);
  });

  it('derives Void from the packed body, so the voided body keeps every other member', () => {
    const { store, moveTo } = storeAt('2026-04-27T10:00:00Z');
    const issued = store.apply({ type: 'Issue' }).emit[0]!;
    moveTo('2026-04-27T11:00:00Z');
    const voided = store.apply({ type: 'Void', bookingId: issued.bookingId }).emit[0]!;
    const { BookingStatus, UpdateDate, ...rest } = voided.body.Reservation;
    const { BookingStatus: _s, UpdateDate: _u, ...issuedRest } = issued.body.Reservation;
    expect([BookingStatus, UpdateDate]).toEqual(['Voided', '2026-04-27T11:00:00Z']);
    expect(rest).toEqual(issuedRest);
    expect(voided.body.Ticket).toEqual(issued.body.Ticket);
    expect(unpackBody(voided.gz)).toEqual(voided.body);
  });
});
