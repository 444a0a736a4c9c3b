/**
 * `generate`'s two paths side by side (test/generate-fast-path.test.ts and its scale run): the
 * reservation store, as `generate` printed before the fast path, and the fast path itself.
 */
import { expect } from 'vitest';
import type { EventType } from '../../src/contract/index.js';
import { MAX_PRECEDING_GAP_HOURS } from '../../src/generate/index.js';
import { notificationLines } from '../../src/generate/ndjson.js';
import { deriveSeed, Rng } from '../../src/generate/random.js';
import { ReservationStore } from '../../src/reservations/index.js';

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

export const fast = (o: Parameters<typeof storeLines>[0]) =>
  [...notificationLines({ ...o, pretty: false })].join('\n');
export const viaStore = (o: Parameters<typeof storeLines>[0]) => [...storeLines(o)].join('\n');

/** `count` Exchanges of one seed: the same bytes both ways, and no BookingID twice. */
export function expectLongRun(count: number): void {
  const o = {
    event: 'Exchange' as const,
    count,
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
}
