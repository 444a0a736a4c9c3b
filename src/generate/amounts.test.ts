/**
 * Amounts fit the decimal limits of spec "Limits": decimal(16,8) for ticket and passenger amounts
 * (at most 8 integer digits), decimal(20,8) for Payment.Amount. A long itinerary sold in guaraníes
 * (PYG: no minor unit, $1 ≈ 7,700 PYG) once priced a ticket above 10⁸ and the store refused its own
 * Issue with body_invalid (outbox-scale bench, between 20,000 and 30,000 events).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotificationBodyStrictSchema, type Segment } from '../contract/index.js';
import { priceBooking } from './booking.js';
import { generateNotification } from './index.js';
import type { NameSource } from './names.js';
import { buildTravellers } from './passengers.js';
import { Rng } from './random.js';
import { AIRLINES, AIRPORTS, type Airport, CURRENCIES } from './reference/index.js';

const AT = '2026-04-27T10:00:00Z';
const DECIMAL16_BOUND = 1e8;
const DECIMAL20_BOUND = 1e12;

describe('amounts within their decimal limits', () => {
  // Found by running the generator over 1.6 million Issue seeds: every one is PYG with 8 segments.
  it.each([186_677, 394_152, 496_271, 548_552, 698_131, 778_013])(
    'Issue seed %i (PYG, 8 segments, a ticket above 10⁸ before the fix) passes the strict schema',
    (seed) => {
      const body = generateNotification({ event: 'Issue', seed, at: AT }).target;
      expect(body.Ticket[0]!.Currency).toBe('PYG');
      expect(NotificationBodyStrictSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    },
  );

  // The reservation store's seeds 55,172 and 85,764 (store seed 12345) are Issue seeds 1494087995
  // and 1029442890: the first 100,000 events of a store seeded 12345 refused two of them.
  it.each([1_494_087_995, 1_029_442_890])(
    'event seed %i of a store seeded 12345 passes the strict schema',
    (seed) => {
      const body = generateNotification({ event: 'Issue', seed, at: AT }).target;
      expect(NotificationBodyStrictSchema.safeParse(body).error?.issues ?? []).toEqual([]);
    },
  );

  it('hold for the longest itineraries, the most passengers and every currency of the table', () => {
    // Any two airports flown back and forth up to 8 times (the longest journeys reach 150,000 km),
    // up to 9 passengers, in every currency: the inputs that make the largest amounts.
    const currencies = [...CURRENCIES.values()];
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        fc.constantFrom(...currencies),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(...AIRPORTS),
        fc.constantFrom(...AIRPORTS),
        (seed, currency, pax, legs, from, to) => {
          const rng = new Rng(seed);
          const shaped = generateNotification({ event: 'Issue', seed, at: AT, shape: { segments: legs } });
          const segments = shaped.target.Segment.map((s, i) => leg(s, i % 2 ? to : from, i % 2 ? from : to));
          const travellers = buildTravellers(rng, NAMES, pax);
          const priced = priceBooking(rng, {
            carrier: AIRLINES[0]!,
            travellers,
            segments,
            currency,
            issuedAt: AT,
            pccIssue: 'AAA1',
            partner: true,
          });
          const amounts16 = [
            ...priced.Ticket.flatMap((t) => [t.TotalAmount, t.FareAmount ?? 0, t.TaxAmount ?? 0]),
            ...priced.Pax.flatMap((p) => [p.Purchase.Fare, p.Purchase.Tax]),
            ...priced.Tax.flatMap((t) => (t.TaxDetails ?? []).map((d) => d.Amount)),
          ];
          for (const a of amounts16) expect(Math.abs(a)).toBeLessThan(DECIMAL16_BOUND);
          for (const p of priced.Payment) expect(Math.abs(p.Amount)).toBeLessThan(DECIMAL20_BOUND);
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

// Fixed names: faker is not what this test is about.
const NAMES: NameSource = { firstName: () => 'ADA', lastName: () => 'LOVELACE', company: () => 'ACME' };

/** A generated segment flown between two other airports instead (pricing reads only these). */
function leg(segment: Segment, from: Airport, to: Airport): Segment {
  return { ...segment, DepartureAirport: from.code, ArrivalAirport: to.code, DepartureCountry: from.country };
}
