/**
 * Segments: chronological, each leg a chain of connections (arrival airport = next departure),
 * airports from the reference table with their countries, flown mostly by the validating carrier.
 */
import type { Segment } from '../contract/index.js';
import type { Rng } from './random.js';
import {
  AIRLINES,
  AIRPORTS,
  AIRPORTS_BY_CODE,
  type Airline,
  type Airport,
  distanceKm,
} from './reference/index.js';
import { DAY_MS, HOUR_MS, localTime, localToUtcMs, MINUTE_MS } from './units.js';

/** Most segments one booking carries (2 legs × 4 segments). */
export const MAX_SEGMENTS = 8;
const MAX_SEGMENTS_PER_LEG = 4;
const CRUISE_KMH = 820;
const TAXI_MINUTES = 30;
const BOOKING_CLASSES = 'YBMHKLQVSNTWEGOUXJCDIZF';

const SEGMENT_COUNTS: ReadonlyArray<readonly [number, number]> = [
  [1, 20],
  [2, 35],
  [3, 14],
  [4, 20],
  [5, 4],
  [6, 5],
  [8, 2],
];

export interface Itinerary {
  carrier: Airline;
  segments: Segment[];
}

function roundTo5Min(ms: number): number {
  return Math.round(ms / (5 * MINUTE_MS)) * 5 * MINUTE_MS;
}

function flightMs(from: Airport, to: Airport): number {
  return roundTo5Min(((distanceKm(from, to) / CRUISE_KMH) * 60 + TAXI_MINUTES) * MINUTE_MS);
}

/** Splits `total` segments into legs: one leg, or two (outbound and return) of at most 4 each. */
function splitLegs(rng: Rng, total: number): number[] {
  if (total === 1) return [1];
  if (total > MAX_SEGMENTS_PER_LEG) return [Math.ceil(total / 2), Math.floor(total / 2)];
  if (rng.chance(0.35)) return [total];
  const out = rng.int(Math.max(1, total - MAX_SEGMENTS_PER_LEG), Math.min(total - 1, MAX_SEGMENTS_PER_LEG));
  return [out, total - out];
}

/** Distinct connection airports for a leg: the carrier's hubs first, then any others. */
function connections(rng: Rng, carrier: Airline, exclude: Set<string>, count: number): Airport[] {
  const out: Airport[] = [];
  const hubs = carrier.hubs.filter((h) => !exclude.has(h));
  while (out.length < count) {
    const code =
      hubs.length && rng.chance(0.8)
        ? hubs.splice(rng.int(0, hubs.length - 1), 1)[0]!
        : rng.pick(AIRPORTS).code;
    if (exclude.has(code)) continue;
    exclude.add(code);
    out.push(AIRPORTS_BY_CODE.get(code)!);
  }
  return out;
}

/** Builds the flights of a booking departing after `afterMs` (UTC). */
export function buildItinerary(rng: Rng, afterMs: number, segmentCount?: number): Itinerary {
  const total = Math.min(MAX_SEGMENTS, Math.max(1, segmentCount ?? rng.weighted(SEGMENT_COUNTS)));
  const carrier = rng.pick(AIRLINES);
  const home = rng.chance(0.7) ? carrier.hubs[0]! : rng.pick(AIRPORTS).code;
  const origin = AIRPORTS_BY_CODE.get(home)!;
  let destination = rng.pick(AIRPORTS);
  while (destination.code === origin.code) destination = rng.pick(AIRPORTS);

  const legs = splitLegs(rng, total);
  const segments: Segment[] = [];
  // First departure 1–120 days after ticketing, between 06:00 and 22:55 local time.
  const dayStart = Math.floor((afterMs + origin.utcOffsetHours * HOUR_MS) / DAY_MS) * DAY_MS;
  let departMs =
    dayStart + rng.int(1, 120) * DAY_MS + rng.int(72, 275) * 5 * MINUTE_MS - origin.utcOffsetHours * HOUR_MS;
  legs.forEach((count, legIndex) => {
    const [from, to] = legIndex === 0 ? [origin, destination] : [destination, origin];
    const stops = connections(rng, carrier, new Set([from.code, to.code]), count - 1);
    const path = [from, ...stops, to];
    const flightNumber = rng.int(1, 9999);
    for (let i = 0; i < count; i++) {
      const dep = path[i]!;
      const arr = path[i + 1]!;
      const arriveMs = departMs + flightMs(dep, arr);
      const interline = i > 0 && rng.chance(0.12);
      segments.push({
        LegNumber: legIndex + 1,
        SegmentNumber: segments.length + 1,
        Airline: interline ? rng.pick(AIRLINES).code : carrier.code,
        Number: interline ? rng.int(1, 9999) : (flightNumber + i * 7) % 9999 || 1,
        DepartureAirport: dep.code,
        DepartureCountry: dep.country,
        DepartureDate: localTime(departMs, dep.utcOffsetHours),
        ArrivalAirport: arr.code,
        ArrivalCountry: arr.country,
        ArrivalDate: localTime(arriveMs, arr.utcOffsetHours),
        BookingClass: rng.pick(BOOKING_CLASSES.slice(0, 12).split('')),
      });
      // Connections 1–4 hours; the return leg 2–21 days after arrival.
      departMs = roundTo5Min(arriveMs + rng.int(60, 240) * MINUTE_MS);
    }
    departMs = roundTo5Min(departMs + rng.int(2, 21) * DAY_MS);
  });
  return { carrier, segments };
}

/** UTC instant of a segment's departure or arrival, from the airport's standard offset. */
export function segmentUtcMs(segment: Segment, end: 'departure' | 'arrival'): number {
  const code = end === 'departure' ? segment.DepartureAirport : segment.ArrivalAirport;
  const local = end === 'departure' ? segment.DepartureDate : segment.ArrivalDate;
  return localToUtcMs(local, AIRPORTS_BY_CODE.get(code)?.utcOffsetHours ?? 0);
}

/** The same flights moved by whole days (an exchange to other dates). */
export function shiftSegments(rng: Rng, segments: readonly Segment[], days: number): Segment[] {
  const shift = (local: string) =>
    new Date(Date.parse(`${local}Z`) + days * DAY_MS).toISOString().slice(0, 19);
  return segments.map((s) => ({
    ...s,
    DepartureDate: shift(s.DepartureDate),
    ArrivalDate: shift(s.ArrivalDate),
    BookingClass: rng.chance(0.5) ? rng.pick(BOOKING_CLASSES.slice(0, 12).split('')) : s.BookingClass,
  }));
}
