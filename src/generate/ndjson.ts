/**
 * What `reportbo-emulator generate` prints: the notifications of `count` events, one JSON body per
 * line. A Void or Exchange first issues the booking it acts on (not printed), like the emulator.
 */

import type { EventType } from '../contract/index.js';
import { ReservationStore } from '../reservations/index.js';
import { MAX_PRECEDING_GAP_HOURS } from './index.js';
import { deriveSeed, Rng } from './random.js';

export interface NdjsonOptions {
  event: EventType;
  count: number;
  seed: number;
  /** Event time of every printed notification. */
  atMs: number;
  exchangeNotifies: 'new' | 'old' | 'both';
  pretty: boolean;
}

/** Yields one output line (without newline) per notification, deterministically from the options. */
export function* notificationLines(opts: NdjsonOptions): Generator<string> {
  let nowMs = opts.atMs;
  const store = new ReservationStore({
    clock: { now: () => new Date(nowMs) },
    seed: opts.seed,
    exchangeNotifies: opts.exchangeNotifies,
  });
  const print = (body: unknown) => (opts.pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
  for (let i = 0; i < opts.count; i++) {
    if (opts.event === 'Issue') {
      nowMs = opts.atMs;
      for (const e of store.apply({ type: 'Issue' }).emit) yield print(e.body);
      continue;
    }
    // The booking was issued 1 minute to 72 hours before the event.
    nowMs = opts.atMs - new Rng(deriveSeed(opts.seed, i, 1)).int(1, MAX_PRECEDING_GAP_HOURS * 60) * 60_000;
    const issued = store.apply({ type: 'Issue' });
    nowMs = opts.atMs;
    const bookingId = issued.reservations[0]!.bookingId;
    for (const e of store.apply({ type: opts.event, bookingId }).emit) yield print(e.body);
  }
}
