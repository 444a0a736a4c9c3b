/**
 * What `reportbo-emulator generate` prints: the notifications of `count` events, one JSON body per
 * line. A Void or Exchange first issues the booking it acts on (not printed), like the emulator.
 *
 * Same bytes as the emulator's reservation store given the same seed and clock (test/generate-fast-
 * path.test.ts compares both for many seeds and every event), without what only the store needs:
 * it gzips every body to keep it and re-validates it against the strict schema, and a later event
 * unpacks the gzip again. Printing needs none of that: 2,700 → 11,000+ Issue bodies/s on one core
 * (bench `generate`). BookingIDs stay unique and are drawn exactly as the store draws them.
 */

import type { EventType, NotificationBody } from '../contract/index.js';
import {
  BOOKING_ID_MAX,
  BOOKING_ID_MIN,
  generateNotification,
  MAX_PRECEDING_GAP_HOURS,
  withStatus,
} from './index.js';
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
  const print = (body: unknown) => (opts.pretty ? JSON.stringify(body, null, 2) : JSON.stringify(body));
  for (const body of notificationBodies(opts)) yield print(body);
}

/**
 * The bodies `generate` prints, in order. Seeds follow the store's: event n (counting the Issue a
 * Void or Exchange needs first) gets `deriveSeed(seed, n)`.
 */
export function* notificationBodies(
  opts: Pick<NdjsonOptions, 'event' | 'count' | 'seed' | 'atMs' | 'exchangeNotifies'>,
): Generator<NotificationBody> {
  const taken = new Set<number>();
  let sequence = 0;
  /** The store's `freshBookingId`: drawn from the seed, moved to the next free one if taken. */
  const freshBookingId = (seed: number): number => {
    let id = new Rng(seed).int(BOOKING_ID_MIN, BOOKING_ID_MAX);
    while (taken.has(id)) id = id >= BOOKING_ID_MAX ? BOOKING_ID_MIN : id + 1;
    taken.add(id);
    return id;
  };
  const issue = (atMs: number): NotificationBody => {
    const seed = deriveSeed(opts.seed, ++sequence);
    const bookingId = freshBookingId(seed);
    return generateNotification({ event: 'Issue', seed, at: atMs, bookingId }).target;
  };
  for (let i = 0; i < opts.count; i++) {
    if (opts.event === 'Issue') {
      yield issue(opts.atMs);
      continue;
    }
    // The booking was issued 1 minute to 72 hours before the event.
    const issuedMs =
      opts.atMs - new Rng(deriveSeed(opts.seed, i, 1)).int(1, MAX_PRECEDING_GAP_HOURS * 60) * 60_000;
    const previous = issue(issuedMs);
    const seed = deriveSeed(opts.seed, ++sequence);
    const atMs = Math.floor(opts.atMs / 1000) * 1000;
    if (opts.event === 'Void') {
      yield withStatus(previous, 'Voided', atMs);
      continue;
    }
    const newBookingId = freshBookingId(deriveSeed(seed, 3));
    const { target, created } = generateNotification({
      event: 'Exchange',
      seed,
      at: atMs,
      previous,
      newBookingId,
    });
    if (opts.exchangeNotifies !== 'new') yield target;
    if (opts.exchangeNotifies !== 'old') yield created!;
  }
}
