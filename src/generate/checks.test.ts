import { describe, expect, it } from 'vitest';
import type { NotificationBody } from '../contract/index.js';
import { CHECKS, checkBody } from './checks.js';
import { generateNotification } from './index.js';

// A booking with several passengers, connections and both kinds of payment rows to break.
const base = generateNotification({
  event: 'Issue',
  seed: 3,
  at: '2026-04-27T10:00:00Z',
  shape: { pax: 3, segments: 6 },
}).target;

function broken(change: (b: NotificationBody) => void): string[] {
  const copy = structuredClone(base);
  change(copy);
  return checkBody(copy).map((f) => f.slice(0, f.indexOf(':')));
}

describe('consistency checks', () => {
  it('pass on a generated body', () => {
    expect(checkBody(base)).toEqual([]);
  });

  it.each<[string, (b: NotificationBody) => void]>([
    [
      'infants never outnumber adults',
      (b) => {
        for (const p of b.Pax) p.Type = p.PaxNumber === 1 ? 'ADT' : 'INF';
      },
    ],
    ['segments chronological', (b) => (b.Segment[1]!.DepartureDate = b.Segment[0]!.DepartureDate)],
    ['connections chain within a leg', (b) => (b.Segment[1]!.DepartureAirport = 'SYD')],
    ['airports and countries from the reference table', (b) => (b.Segment[0]!.DepartureCountry = 'ZZ')],
    [
      'validating carrier is real and flies a segment',
      (b) => {
        for (const s of b.Segment) s.Airline = 'ZZ';
      },
    ],
    [
      'one MainTicket per passenger, ConjTickets past 4 coupons',
      (b) => (b.Ticket[1]!.SubType = 'MainTicket'),
    ],
    ['ticket numbers are 13 digits with the carrier prefix', (b) => (b.Ticket[0]!.Number = '9990000000001')],
    ['TotalAmount = FareAmount + TaxAmount', (b) => (b.Ticket[0]!.TotalAmount += 1)],
    ['Tax rows reference tickets and sum to TaxAmount', (b) => (b.Tax[0]!.TicketId = 1)],
    ['Pax.Purchase agrees with the passenger’s tickets', (b) => (b.Pax[0]!.Purchase.Fare += 1)],
    [
      'payments reference ALL or real passengers; CC carries a masked card',
      (b) => (b.Payment[0]!.Reference = '7'),
    ],
    ['payments reconcile with tickets and fees', (b) => (b.Payment[0]!.Amount += 1)],
    ['BookingDate ≤ TicketingDate ≤ UpdateDate', (b) => (b.Reservation.BookingDate = '2027-01-01T00:00:00Z')],
    ['locators have 6 characters', (b) => (b.Reservation.BookingNumber = 'ABC')],
    ['exchange links match the status', (b) => (b.Reservation.BookingStatus = 'Exchanged')],
    ['RawData names the ticket number and the passenger', (b) => (b.Ticket[0]!.RawData = 'x')],
  ])('detect a body that breaks "%s"', (name, change) => {
    expect(CHECKS[name]).toBeDefined();
    expect(broken(change)).toContain(name);
  });

  it('report a strict-schema failure with the field path', () => {
    const copy = structuredClone(base) as NotificationBody & { Extra?: number };
    copy.Extra = 1;
    expect(checkBody(copy).join('\n')).toMatch(/^strict schema: .*Extra/m);
  });
});
