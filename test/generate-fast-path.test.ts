/**
 * `generate` prints without the reservation store (no gzip, no strict re-validation, no unpacking),
 * and the store skips the strict parse of a generated Issue body without overrides: these tests prove
 * both print the same bytes the strict parse answers, for many seeds and every event, so skipping it
 * cannot change what is printed or sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EventType, NotificationBodyStrictSchema } from '../src/contract/index.js';
import { MAX_PRECEDING_GAP_HOURS, MAX_SEED } from '../src/generate/index.js';
import { notificationLines } from '../src/generate/ndjson.js';
import { deriveSeed, Rng } from '../src/generate/random.js';
import { ReservationStore } from '../src/reservations/index.js';

/** What `generate` printed before the fast path: every event through the reservation store. */
function* storeLines(opts: {
  event: EventType;
  count: number;
  seed: number;
  atMs: number;
  exchangeNotifies: 'new' | 'old' | 'both';
}): Generator<string> {
  let nowMs = opts.atMs;
  const store = new ReservationStore({
    clock: { now: () => new Date(nowMs) },
    seed: opts.seed,
    exchangeNotifies: opts.exchangeNotifies,
  });
  for (let i = 0; i < opts.count; i++) {
    if (opts.event === 'Issue') {
      nowMs = opts.atMs;
      for (const e of store.apply({ type: 'Issue' }).emit) yield JSON.stringify(e.body);
      continue;
    }
    nowMs = opts.atMs - new Rng(deriveSeed(opts.seed, i, 1)).int(1, MAX_PRECEDING_GAP_HOURS * 60) * 60_000;
    const issued = store.apply({ type: 'Issue' });
    nowMs = opts.atMs;
    const bookingId = issued.reservations[0]!.bookingId;
    for (const e of store.apply({ type: opts.event, bookingId }).emit) yield JSON.stringify(e.body);
  }
}

const fast = (o: Parameters<typeof storeLines>[0]) =>
  [...notificationLines({ ...o, pretty: false })].join('\n');
const viaStore = (o: Parameters<typeof storeLines>[0]) => [...storeLines(o)].join('\n');

describe('generate without the store', () => {
  it.each(['Issue', 'Void', 'Exchange'] as const)(
    'prints the same bytes as the store path for %s over 100 seeds × 4 events',
    (event) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: MAX_SEED }),
          fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
          fc.constantFrom('new', 'old', 'both') as fc.Arbitrary<'new' | 'old' | 'both'>,
          (seed, atMs, exchangeNotifies) => {
            const o = { event, count: 4, seed, atMs, exchangeNotifies };
            const lines = fast(o);
            expect(lines).toBe(viaStore(o));
            // The strict parse the store skips for generated bodies answers them byte for byte.
            for (const line of lines.split('\n')) {
              expect(JSON.stringify(NotificationBodyStrictSchema.parse(JSON.parse(line)))).toBe(line);
            }
          },
        ),
        { numRuns: 100 },
      );
    },
  );

  it('keeps BookingIDs unique and the bytes equal over a long run (2,000 Exchanges)', () => {
    const o = {
      event: 'Exchange' as const,
      count: 2_000,
      seed: 7,
      atMs: Date.parse('2026-04-27T10:00:00.750Z'),
      exchangeNotifies: 'both' as const,
    };
    const lines = [...notificationLines({ ...o, pretty: false })];
    expect(lines.join('\n')).toBe(viaStore(o));
    const ids = lines.map(
      (l) => (JSON.parse(l) as { Reservation: { BookingID: number } }).Reservation.BookingID,
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('prints --pretty as the indented form of the same bodies', () => {
    const o = { event: 'Issue' as const, count: 3, seed: 11, atMs: Date.parse('2026-04-27T10:00:00Z') };
    const pretty = [...notificationLines({ ...o, exchangeNotifies: 'both', pretty: true })];
    const plain = [...notificationLines({ ...o, exchangeNotifies: 'both', pretty: false })];
    expect(pretty.map((p) => JSON.stringify(JSON.parse(p)))).toEqual(plain);
    expect(pretty[0]).toContain('\n  "');
  });
});
