/**
 * Tickets and taxes: an ETK MainTicket per passenger, ConjTickets when coupons exceed 4, sometimes
 * an EMD. Numbers are the validating carrier's 3-digit prefix + 10 digits; TotalAmount = FareAmount
 * + TaxAmount; every Tax row references an ETK ticket and its TaxDetails sum to its TaxAmount.
 */
import type { NotificationBody, Segment, Ticket } from '../contract/index.js';
import { FARE_SHARE, type Traveller } from './passengers.js';
import type { Rng } from './random.js';
import { rawTicketText } from './raw-data.js';
import {
  AIRPORTS_BY_CODE,
  type Airline,
  CARRIER_SURCHARGES,
  type Currency,
  DEPARTURE_TAXES,
  distanceKm,
  type TaxCode,
} from './reference/index.js';
import { AMOUNT_INTEGER_DIGITS, largestMinor, toAmount, usdToMinor } from './units.js';

/** Flight coupons one ticket holds; more need a conjunction ticket (spec "Ticket (each element)" SubType). */
export const COUPONS_PER_TICKET = 4;
const EMD_REASONS = ['SEAT', 'BAGGAGE', 'MEAL', 'LOUNGE', 'PET'] as const;

export interface TicketContext {
  carrier: Airline;
  travellers: readonly Traveller[];
  segments: readonly Segment[];
  currency: Currency;
  issuedAt: string;
  pccIssue: string;
  /** Form of payment as RawData prints it, e.g. `CC VI411111XXXXXX1111` or `CASH`. */
  fop: string;
  /** Whether Tax rows carry TaxDetails (an optional member, omitted for some bookings). */
  withTaxDetails: boolean;
}

export interface PricedTickets {
  Ticket: Ticket[];
  Tax: NotificationBody['Tax'];
  /** ETK fare and tax per PaxNumber, in minor units (for Pax.Purchase). */
  purchase: Map<number, { fare: number; tax: number }>;
  etkTotalMinor: number;
  /** EMD totals per PaxNumber, in minor units (for the OFFERS payment). */
  emdByPax: Map<number, number>;
}

function uniformUsd(rng: Rng, code: TaxCode): number {
  return code.minUsd + rng.next() * (code.maxUsd - code.minUsd);
}

/** Tax lines of one passenger's journey, in minor units. */
function taxLines(rng: Rng, ctx: TicketContext, type: string): Array<{ code: string; minor: number }> {
  const lines: Array<{ code: string; minor: number }> = [];
  const share = type === 'INF' ? 0.5 : 1;
  if (type !== 'INF') {
    for (const surcharge of CARRIER_SURCHARGES) {
      if (rng.chance(0.6))
        lines.push({ code: surcharge.code, minor: usdToMinor(uniformUsd(rng, surcharge), ctx.currency) });
    }
  }
  const countries = new Set(ctx.segments.map((s) => s.DepartureCountry));
  for (const country of countries) {
    for (const code of DEPARTURE_TAXES[country] ?? []) {
      lines.push({ code: code.code, minor: usdToMinor(uniformUsd(rng, code) * share, ctx.currency) });
    }
  }
  return lines;
}

/** Prices and numbers every ticket of a booking. */
export function buildTickets(rng: Rng, ctx: TicketContext): PricedTickets {
  const { currency, carrier } = ctx;
  let km = 0;
  for (const s of ctx.segments) {
    km += distanceKm(AIRPORTS_BY_CODE.get(s.DepartureAirport)!, AIRPORTS_BY_CODE.get(s.ArrivalAirport)!);
  }
  const adultFareUsd = 40 + km * (0.05 + rng.next() * 0.12);
  let serial = rng.int(1_000_000_000, 9_899_999_999);
  let ticketId = rng.int(10_000_000, 89_999_999);
  const Ticket: Ticket[] = [];
  const Tax: NotificationBody['Tax'] = [];
  const purchase = new Map<number, { fare: number; tax: number }>();
  let etkTotalMinor = 0;
  const linesByType = new Map<string, Array<{ code: string; minor: number }>>();
  const largestTicket = largestMinor(AMOUNT_INTEGER_DIGITS, currency);

  for (const pax of ctx.travellers) {
    const share = FARE_SHARE[pax.Type] ?? FARE_SHARE.CHD!;
    // Passengers of one type pay the same taxes on the same journey.
    const lines = linesByType.get(pax.Type) ?? taxLines(rng, ctx, pax.Type);
    linesByType.set(pax.Type, lines);
    const tax = lines.reduce((sum, l) => sum + l.minor, 0);
    // TotalAmount is decimal(16,8) (spec "Limits"): at most 8 integer digits. In a currency of small
    // units a long journey overflows it (8 segments ≈ $13,000 ≈ 10⁸ PYG), so the fare gives way.
    const fare = Math.min(usdToMinor(adultFareUsd * share, currency), Math.max(0, largestTicket - tax));
    purchase.set(pax.PaxNumber, { fare, tax });
    etkTotalMinor += fare + tax;
    const books = Math.max(1, Math.ceil(ctx.segments.length / COUPONS_PER_TICKET));
    for (let b = 0; b < books; b++) {
      const main = b === 0;
      const number = `${carrier.prefix}${serial++}`;
      const [f, t] = main ? [fare, tax] : [0, 0];
      const coupons = ctx.segments.slice(b * COUPONS_PER_TICKET, (b + 1) * COUPONS_PER_TICKET);
      const id = ticketId++;
      const subType = main ? 'MainTicket' : 'ConjTicket';
      // Members in the schema's order: Type and SubType last (they select the union's branch).
      Ticket.push({
        TicketId: id,
        Number: number,
        PaxNumber: pax.PaxNumber,
        Currency: currency.code,
        TotalAmount: toAmount(f + t, currency),
        FareAmount: toAmount(f, currency),
        TaxAmount: toAmount(t, currency),
        RawData: rawTicketText({
          kind: 'ETK',
          number,
          subType,
          pax,
          coupons,
          couponOffset: b * COUPONS_PER_TICKET,
          currency,
          fareMinor: f,
          taxMinor: t,
          totalMinor: f + t,
          issuedAt: ctx.issuedAt,
          pccIssue: ctx.pccIssue,
          fop: ctx.fop,
        }),
        Type: 'ETK',
        SubType: subType,
      });
      const details = main ? lines.map((l) => ({ Code: l.code, Amount: toAmount(l.minor, currency) })) : [];
      Tax.push(ctx.withTaxDetails ? { TicketId: id, TaxDetails: details } : { TicketId: id });
    }
  }

  // Ancillaries: about one booking in five buys an EMD (seat, bag, …) for a passenger.
  const emdByPax = new Map<number, number>();
  if (rng.chance(0.2)) {
    const count = rng.int(1, Math.min(2, ctx.travellers.length));
    for (let i = 0; i < count; i++) {
      const pax = rng.pick(ctx.travellers);
      const reason = rng.pick(EMD_REASONS);
      const total = usdToMinor(15 + rng.next() * 105, currency);
      const number = `${carrier.prefix}${serial++}`;
      emdByPax.set(pax.PaxNumber, (emdByPax.get(pax.PaxNumber) ?? 0) + total);
      Ticket.push({
        TicketId: ticketId++,
        Number: number,
        PaxNumber: pax.PaxNumber,
        Currency: currency.code,
        TotalAmount: toAmount(total, currency),
        RawData: rawTicketText({
          kind: 'EMD',
          number,
          subType: reason,
          pax,
          coupons: [],
          couponOffset: 0,
          currency,
          fareMinor: 0,
          taxMinor: 0,
          totalMinor: total,
          issuedAt: ctx.issuedAt,
          pccIssue: ctx.pccIssue,
          fop: ctx.fop,
        }),
        Type: 'EMD',
        SubType: reason,
      });
    }
  }
  return { Ticket, Tax, purchase, etkTotalMinor, emdByPax };
}
