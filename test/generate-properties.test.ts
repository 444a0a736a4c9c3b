import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { NotificationBody } from '../src/contract/index.js';
import { checkBody } from '../src/generate/checks.js';
import { EVENT_TYPES, generateNotification, MAX_SEED } from '../src/generate/index.js';

/** Seeds per event (at least 2,000). */
const SEEDS_PER_EVENT = 2_000;
const AT = '2026-04-27T10:00:00Z';

function failures(seed: number, bodies: Array<NotificationBody | undefined>): string[] {
  return bodies.flatMap((b) =>
    b ? checkBody(b).map((f) => `seed ${seed}, ${b.Reservation.BookingStatus} body: ${f}`) : [],
  );
}

describe('generated notifications', () => {
  it.each(EVENT_TYPES)(
    'satisfy the strict schema and every consistency rule for %s over 2,000 seeds',
    (event) => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: MAX_SEED }), (seed) => {
          const r = generateNotification({ event, seed, at: AT });
          const problems = failures(seed, [r.target, r.created, r.preceding]);
          if (event === 'Exchange') {
            const [old, created] = [r.target.Reservation, r.created?.Reservation];
            if (old.ExchangedTo !== created?.BookingID || created?.ExchangedFrom !== old.BookingID)
              problems.push(`seed ${seed}: exchange links ${old.ExchangedTo}/${created?.ExchangedFrom}`);
          }
          if (event !== 'Issue' && r.target.Reservation.UpdateDate !== AT)
            problems.push(`seed ${seed}: UpdateDate`);
          if (problems.length) throw new Error(problems.join('\n'));
        }),
        { numRuns: SEEDS_PER_EVENT },
      );
    },
  );

  it('are byte-identical for the same seed and time and differ for another seed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SEED - 1 }),
        fc.constantFrom(...EVENT_TYPES),
        (seed, event) => {
          const once = JSON.stringify(generateNotification({ event, seed, at: AT }));
          expect(JSON.stringify(generateNotification({ event, seed, at: AT }))).toBe(once);
          expect(JSON.stringify(generateNotification({ event, seed: seed + 1, at: AT }))).not.toBe(once);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('honour a requested shape of 1–9 passengers and 1–8 segments', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: MAX_SEED }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 8 }),
        (seed, pax, segments) => {
          const body = generateNotification({
            event: 'Issue',
            seed,
            at: AT,
            shape: { pax, segments },
          }).target;
          expect([body.Pax.length, body.Segment.length]).toEqual([pax, segments]);
          expect(failures(seed, [body])).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('show both shapes of optional members across seeds', () => {
    const bodies = Array.from(
      { length: 300 },
      (_, seed) => generateNotification({ event: 'Issue', seed, at: AT }).target,
    );
    for (const pick of [
      (b: NotificationBody) => b.Remark,
      (b: NotificationBody) => b.Van,
      (b: NotificationBody) => b.Ratio,
      (b: NotificationBody) => b.Fees.PartnerFees.CFEE,
      (b: NotificationBody) => b.Over.OverCalculation,
      (b: NotificationBody) => b.Reservation.ExternalID,
    ]) {
      const present = bodies.filter((b) => pick(b) !== undefined).length;
      expect(present).toBeGreaterThan(0);
      expect(present).toBeLessThan(bodies.length);
    }
    expect(bodies.some((b) => b.Ticket.some((t) => t.Type === 'EMD'))).toBe(true);
    expect(bodies.some((b) => b.Ticket.some((t) => t.SubType === 'ConjTicket'))).toBe(true);
    expect(bodies.some((b) => b.Payment.some((p) => p.FOPtype === 'CASH'))).toBe(true);
  });
});
