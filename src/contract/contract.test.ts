import { describe, expect, it } from 'vitest';
import { generateNotification } from '../generate/index.js';
import {
  fractionDigits,
  NotificationBodySchema,
  NotificationBodyStrictSchema,
  notificationJsonSchema,
} from './index.js';

const body = generateNotification({ event: 'Issue', seed: 11, at: '2026-04-27T10:00:00Z' }).target;

// Tests write invalid values on purpose, so the copy is untyped.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = Record<string, any>;

/** A copy of the body with one change applied to it. */
function changed(change: (b: Loose) => void): unknown {
  const copy = structuredClone(body) as Loose;
  change(copy);
  return copy;
}

function issuePaths(value: unknown): string[] {
  const r = NotificationBodyStrictSchema.safeParse(value);
  return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
}

describe('notification contract', () => {
  it('accepts a generated body in both variants', () => {
    expect(NotificationBodyStrictSchema.safeParse(body).success).toBe(true);
    expect(NotificationBodySchema.safeParse(body).success).toBe(true);
  });

  it('rejects unknown members only in the strict variant', () => {
    const extra = changed((b) => {
      b.Reservation.Surprise = 1;
    });
    expect(NotificationBodySchema.safeParse(extra).success).toBe(true);
    expect(NotificationBodyStrictSchema.safeParse(extra).success).toBe(false);
  });

  it('requires the members the spec marks required and lets optional ones be omitted', () => {
    expect(issuePaths(changed((b) => delete b.Reservation.PCCBook))).toEqual(['Reservation.PCCBook']);
    expect(issuePaths(changed((b) => delete b.Tax))).toEqual(['Tax']);
    expect(issuePaths(changed((b) => delete b.Remark))).toEqual([]);
    expect(issuePaths(changed((b) => delete b.Fees.PartnerFees.CFEE))).toEqual([]);
  });

  it('requires Zulu datetimes with a trailing Z', () => {
    expect(issuePaths(changed((b) => (b.Reservation.UpdateDate = '2026-04-27T10:00:00+02:00')))).toEqual([
      'Reservation.UpdateDate',
    ]);
    expect(issuePaths(changed((b) => (b.Reservation.UpdateDate = '2026-04-27T10:00:00')))).toHaveLength(1);
  });

  it('requires Segment dates without a zone and on a real calendar day', () => {
    expect(issuePaths(changed((b) => (b.Segment[0].DepartureDate = '2026-05-12T08:30:00Z')))).toEqual([
      'Segment.0.DepartureDate',
    ]);
    expect(issuePaths(changed((b) => (b.Segment[0].DepartureDate = '2026-04-31T08:30:00')))).toEqual([
      'Segment.0.DepartureDate',
    ]);
  });

  it('holds decimal(16,8) and decimal(20,8) to their digit limits', () => {
    const ok = (amount: number) => issuePaths(changed((b) => (b.Ticket[0].TotalAmount = amount)));
    expect(ok(12345678.12345678)).toEqual([]);
    expect(ok(123456789)).toEqual(['Ticket.0.TotalAmount']);
    expect(ok(1.123456789)).toEqual(['Ticket.0.TotalAmount']);
    const pay = (amount: number) => issuePaths(changed((b) => (b.Payment[0].Amount = amount)));
    expect(pay(123456789012.5)).toEqual([]);
    expect(pay(1234567890123)).toEqual(['Payment.0.Amount']);
  });

  it('counts fraction digits in exponent notation too', () => {
    expect(fractionDigits(1e-8)).toBe(8);
    expect(fractionDigits(1e-9)).toBe(9);
    expect(fractionDigits(570.5)).toBe(1);
    expect(fractionDigits(12)).toBe(0);
  });

  it('accepts only masked card numbers', () => {
    const card = (n: string) =>
      issuePaths(changed((b) => (b.Van = [{ Used: true, CardType: 'WEX', CardNumber: n }])));
    expect(card('411111XXXXXX1111')).toEqual([]);
    expect(card('4111111111111111')).toEqual(['Van.0.CardNumber']);
  });

  it('ties Ticket SubType to Type: ETK takes MainTicket or ConjTicket, EMD any provider text', () => {
    const etk = body.Ticket.findIndex((t) => t.Type === 'ETK');
    expect(issuePaths(changed((b) => (b.Ticket[etk].SubType = 'SEAT')))).not.toEqual([]);
    const asEmd = changed((b) => {
      b.Ticket[etk].Type = 'EMD';
      b.Ticket[etk].SubType = 'SEAT';
    });
    expect(issuePaths(asEmd)).toEqual([]);
  });

  it('validates codes: currency, IATA airline, airport and country, passenger type, OverPaxType', () => {
    expect(issuePaths(changed((b) => (b.Fees.ApiFees.Currency = 'usd')))).toEqual(['Fees.ApiFees.Currency']);
    expect(issuePaths(changed((b) => (b.Reservation.ValidatingCarrier = 'AAL')))).toEqual([
      'Reservation.ValidatingCarrier',
    ]);
    expect(issuePaths(changed((b) => (b.Segment[0].ArrivalCountry = 'USA')))).toEqual([
      'Segment.0.ArrivalCountry',
    ]);
    expect(issuePaths(changed((b) => (b.Pax[0].Type = 'C13')))).toEqual(['Pax.0.Type']);
    expect(issuePaths(changed((b) => (b.Over.OverPaxType = 'ADT|C05')))).toEqual([]);
    expect(issuePaths(changed((b) => (b.Over.OverPaxType = 'ADT,CHD')))).toEqual(['Over.OverPaxType']);
  });

  it('derives a JSON Schema that forbids unknown members and lists required ones', () => {
    const schema = notificationJsonSchema() as { additionalProperties: boolean; required: string[] };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(
      expect.arrayContaining(['FileType', 'Reservation', 'Payment', 'Ticket', 'Segment', 'Pax', 'Tax']),
    );
    expect(schema.required).not.toContain('Remark');
  });
});
