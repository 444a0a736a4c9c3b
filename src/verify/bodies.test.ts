import { describe, expect, it } from 'vitest';
import { NotificationBodyStrictSchema } from '../contract/index.js';
import { LONG_RAW_DATA_CHARS, MAX_PAX, MAX_SEGMENTS, maximalBody, minimalBody } from './bodies.js';
import { percentile } from './cases/timing.js';

const AT = new Date('2026-04-27T10:00:00Z');

describe('the minimal body', () => {
  it('is valid and leaves out every optional member the spec lists', () => {
    for (const seed of [1, 2, 3, 42, 1234]) {
      const b = minimalBody(seed, AT);
      expect(NotificationBodyStrictSchema.safeParse(b).success).toBe(true);
      for (const member of ['Remark', 'Ratio', 'Van']) expect(b).not.toHaveProperty(member);
      for (const field of [
        'ExchangedTo',
        'ExchangedFrom',
        'ExternalID',
        'PartnerCC',
        'PartnerUser',
        'BuyerDocument',
      ])
        expect(b.Reservation).not.toHaveProperty(field);
      expect(b.Commission).not.toHaveProperty('PartnerCDISC');
      expect(Object.keys(b.Over).sort()).toEqual(['OverPaxType', 'OverPct']);
      expect(b.Fees.ApiFees).not.toHaveProperty('ContentCost');
      expect(Object.keys(b.Fees.PartnerFees).sort()).toEqual(['Application', 'Currency']);
      for (const t of b.Ticket)
        for (const f of ['Number', 'FareAmount', 'TaxAmount']) expect(t).not.toHaveProperty(f);
      for (const t of b.Tax) expect(Object.keys(t)).toEqual(['TicketId']);
      for (const p of b.Payment) {
        if (p.FOPtype === 'CC') expect(Object.keys(p.CreditCard!).sort()).toEqual(['Number', 'Type']);
        else expect(p).not.toHaveProperty('CreditCard');
      }
    }
  });
});

describe('the maximal body', () => {
  it('has 9 passengers with non-ASCII names, 8 segments, every optional member and a long RawData', () => {
    const b = maximalBody(7, AT);
    expect(NotificationBodyStrictSchema.safeParse(b).success).toBe(true);
    expect(b.Pax).toHaveLength(MAX_PAX);
    expect(b.Segment).toHaveLength(MAX_SEGMENTS);
    for (const p of b.Pax) expect(`${p.FirstName}${p.LastName}`).toMatch(/[^\x20-\x7e]/u);
    expect(b.Reservation).toMatchObject({
      BookingStatus: 'Exchanged',
      ExchangedTo: expect.any(Number),
      ExchangedFrom: expect.any(Number),
      ExternalID: expect.any(String),
      PartnerCC: expect.any(String),
      PartnerUser: expect.any(String),
      BuyerDocument: expect.any(String),
    });
    for (const member of ['Remark', 'Ratio', 'Van']) expect(b).toHaveProperty(member);
    expect(b.Payment.some((p) => p.CreditCard?.AuthCode && p.CreditCard.Installments)).toBe(true);
    expect(b.Tax.every((t) => t.TaxDetails)).toBe(true);
    expect(b.Ticket[0]!.RawData.length).toBeGreaterThan(LONG_RAW_DATA_CHARS);
  });
});

describe('percentile', () => {
  it('is the nearest-rank percentile', () => {
    const values = Array.from({ length: 20 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(10);
    expect(percentile(values, 95)).toBe(19);
    expect(percentile([7], 95)).toBe(7);
    expect(percentile([], 50)).toBe(0);
  });
});
