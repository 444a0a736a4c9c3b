/**
 * The generator's consistency rules (decisions 0006 and 0007), each a named check over one body. Property
 * tests run all of them; a failure names the check and what was wrong.
 */
import { type NotificationBody, NotificationBodyStrictSchema } from '../contract/index.js';
import { describeIssues } from '../contract/validate.js';
import { segmentUtcMs } from './itinerary.js';
import { MAX_PAX } from './passengers.js';
import { AIRLINES_BY_CODE, AIRPORTS_BY_CODE, CURRENCIES } from './reference/index.js';
import { COUPONS_PER_TICKET } from './tickets.js';
import { toMinor } from './units.js';

export type Check = (body: NotificationBody) => string | undefined;

const minorOf = (body: NotificationBody) => {
  const currency = CURRENCIES.get(body.Fees.ApiFees.Currency) ?? { code: '', minorDigits: 2, usdPerUnit: 1 };
  return (amount: number | undefined) => toMinor(amount ?? 0, currency);
};
const etkOf = (body: NotificationBody, pax: number) =>
  body.Ticket.filter((t) => t.Type === 'ETK' && t.PaxNumber === pax);

/** Every rule by name; each answers a message when the body breaks it. */
export const CHECKS: Readonly<Record<string, Check>> = {
  'strict schema': (b) => {
    const r = NotificationBodyStrictSchema.safeParse(b);
    return r.success ? undefined : describeIssues(r.error.issues).slice(0, 3).join('; ');
  },
  'pax count 1–9, numbered 1..n': (b) =>
    b.Pax.length < 1 || b.Pax.length > MAX_PAX || b.Pax.some((p, i) => p.PaxNumber !== i + 1)
      ? `PaxNumbers ${b.Pax.map((p) => p.PaxNumber).join(',')}`
      : undefined,
  'infants never outnumber adults': (b) => {
    const inf = b.Pax.filter((p) => p.Type === 'INF').length;
    const adt = b.Pax.filter((p) => p.Type === 'ADT').length;
    return inf > adt || adt === 0 ? `${inf} INF for ${adt} ADT` : undefined;
  },
  'segments chronological': (b) => {
    for (let i = 0; i < b.Segment.length; i++) {
      const s = b.Segment[i]!;
      if (segmentUtcMs(s, 'arrival') <= segmentUtcMs(s, 'departure'))
        return `segment ${i + 1} arrives before it departs`;
      const next = b.Segment[i + 1];
      if (next && segmentUtcMs(next, 'departure') <= segmentUtcMs(s, 'arrival'))
        return `segment ${i + 2} departs before segment ${i + 1} arrives`;
      if (s.SegmentNumber !== i + 1) return `SegmentNumber ${s.SegmentNumber} at position ${i + 1}`;
    }
    return undefined;
  },
  'connections chain within a leg': (b) => {
    for (let i = 1; i < b.Segment.length; i++) {
      const [prev, s] = [b.Segment[i - 1]!, b.Segment[i]!];
      if (s.LegNumber === prev.LegNumber && s.DepartureAirport !== prev.ArrivalAirport)
        return `leg ${s.LegNumber}: ${prev.ArrivalAirport} then ${s.DepartureAirport}`;
      if (s.LegNumber < prev.LegNumber) return 'LegNumber decreases';
    }
    return undefined;
  },
  'airports and countries from the reference table': (b) => {
    for (const s of b.Segment) {
      for (const [code, country] of [
        [s.DepartureAirport, s.DepartureCountry],
        [s.ArrivalAirport, s.ArrivalCountry],
      ] as const) {
        if (AIRPORTS_BY_CODE.get(code)?.country !== country) return `${code} is not in ${country}`;
      }
    }
    return undefined;
  },
  'validating carrier is real and flies a segment': (b) => {
    const vc = b.Reservation.ValidatingCarrier;
    if (!AIRLINES_BY_CODE.has(vc)) return `unknown carrier ${vc}`;
    const bad = b.Segment.find((s) => !AIRLINES_BY_CODE.has(s.Airline));
    if (bad) return `unknown airline ${bad.Airline}`;
    return b.Segment.some((s) => s.Airline === vc) ? undefined : `${vc} flies none of the segments`;
  },
  'one MainTicket per passenger, ConjTickets past 4 coupons': (b) => {
    const conj = Math.max(1, Math.ceil(b.Segment.length / COUPONS_PER_TICKET)) - 1;
    for (const p of b.Pax) {
      const etk = etkOf(b, p.PaxNumber);
      const mains = etk.filter((t) => t.SubType === 'MainTicket').length;
      const conjs = etk.filter((t) => t.SubType === 'ConjTicket').length;
      if (mains !== 1 || conjs !== conj)
        return `pax ${p.PaxNumber}: ${mains} main, ${conjs} conj (expected 1, ${conj})`;
    }
    return b.Ticket.every((t) => b.Pax.some((p) => p.PaxNumber === t.PaxNumber))
      ? undefined
      : 'ticket for unknown pax';
  },
  'ticket numbers are 13 digits with the carrier prefix': (b) => {
    const prefix = AIRLINES_BY_CODE.get(b.Reservation.ValidatingCarrier)?.prefix;
    const bad = b.Ticket.find(
      (t) => !t.Number || !/^\d{13}$/.test(t.Number) || t.Number.slice(0, 3) !== prefix,
    );
    const unique = new Set(b.Ticket.map((t) => t.Number)).size === b.Ticket.length;
    return bad
      ? `ticket ${bad.TicketId} number ${bad.Number} (prefix ${prefix})`
      : unique
        ? undefined
        : 'duplicate ticket numbers';
  },
  'TotalAmount = FareAmount + TaxAmount': (b) => {
    const m = minorOf(b);
    const bad = b.Ticket.find(
      (t) => t.Type === 'ETK' && m(t.TotalAmount) !== m(t.FareAmount) + m(t.TaxAmount),
    );
    return bad
      ? `ticket ${bad.TicketId}: ${bad.TotalAmount} ≠ ${bad.FareAmount} + ${bad.TaxAmount}`
      : undefined;
  },
  'Tax rows reference tickets and sum to TaxAmount': (b) => {
    const m = minorOf(b);
    for (const row of b.Tax) {
      const t = b.Ticket.find((x) => x.TicketId === row.TicketId);
      if (!t) return `Tax row for unknown TicketId ${row.TicketId}`;
      const sum = (row.TaxDetails ?? []).reduce((s, d) => s + m(d.Amount), 0);
      if (row.TaxDetails && sum !== m(t.TaxAmount))
        return `ticket ${t.TicketId}: details ${sum} ≠ TaxAmount ${t.TaxAmount}`;
    }
    return undefined;
  },
  'Pax.Purchase agrees with the passenger’s tickets': (b) => {
    const m = minorOf(b);
    for (const p of b.Pax) {
      const etk = etkOf(b, p.PaxNumber);
      const fare = etk.reduce((s, t) => s + m(t.FareAmount), 0);
      const tax = etk.reduce((s, t) => s + m(t.TaxAmount), 0);
      if (m(p.Purchase.Fare) !== fare || m(p.Purchase.Tax) !== tax)
        return `pax ${p.PaxNumber}: purchase ≠ tickets`;
      if (etk.some((t) => t.Currency !== p.Purchase.Currency)) return `pax ${p.PaxNumber}: currency differs`;
    }
    return undefined;
  },
  'payments reference ALL or real passengers; CC carries a masked card': (b) => {
    for (const p of b.Payment) {
      if (
        p.Reference !== 'ALL' &&
        p.Reference.split(',').some((n) => !b.Pax.some((x) => x.PaxNumber === Number(n)))
      )
        return `payment ${p.Number}: reference ${p.Reference}`;
      if ((p.FOPtype === 'CC') !== (p.CreditCard !== undefined))
        return `payment ${p.Number}: ${p.FOPtype} and card`;
    }
    return undefined;
  },
  'payments reconcile with tickets and fees': (b) => {
    const m = minorOf(b);
    const paid = (type: string) =>
      b.Payment.filter((p) => p.Type === type).reduce((s, p) => s + m(p.Amount), 0);
    const sum = (type: 'ETK' | 'EMD') =>
      b.Ticket.filter((t) => t.Type === type).reduce((s, t) => s + m(t.TotalAmount), 0);
    const { ApiFees, PartnerFees } = b.Fees;
    const fees = m(ApiFees.ContentFee) + m(ApiFees.ApiFee) + m(PartnerFees.CFEE) + m(PartnerFees.AFEE);
    if (paid('FARE') !== sum('ETK')) return `FARE ${paid('FARE')} ≠ ETK ${sum('ETK')}`;
    if (paid('FEE') !== fees) return `FEE ${paid('FEE')} ≠ fees ${fees}`;
    if (paid('OFFERS') !== sum('EMD')) return `OFFERS ${paid('OFFERS')} ≠ EMD ${sum('EMD')}`;
    return b.Payment.every((p) => p.Currency === ApiFees.Currency) ? undefined : 'payment currency differs';
  },
  'BookingDate ≤ TicketingDate ≤ UpdateDate': (b) => {
    const r = b.Reservation;
    return Date.parse(r.BookingDate) <= Date.parse(r.TicketingDate) &&
      Date.parse(r.TicketingDate) <= Date.parse(r.UpdateDate)
      ? undefined
      : `${r.BookingDate} / ${r.TicketingDate} / ${r.UpdateDate}`;
  },
  'locators have 6 characters': (b) =>
    /^[A-Z0-9]{6}$/.test(b.Reservation.BookingNumber) && /^[A-Z0-9]{6}$/.test(b.Reservation.AirlineLocator)
      ? undefined
      : `${b.Reservation.BookingNumber} / ${b.Reservation.AirlineLocator}`,
  'exchange links match the status': (b) => {
    const r = b.Reservation;
    if ((r.BookingStatus === 'Exchanged') !== (r.ExchangedTo !== undefined))
      return `${r.BookingStatus} with ExchangedTo ${r.ExchangedTo}`;
    if (r.BookingStatus === 'Issued' && r.ExchangedFrom !== undefined) return 'Issued with ExchangedFrom';
    if (r.BookingStatus === 'Issued-Exch' && r.ExchangedFrom === undefined)
      return 'Issued-Exch without ExchangedFrom';
    return undefined;
  },
  'RawData names the ticket number and the passenger': (b) => {
    for (const t of b.Ticket) {
      const pax = b.Pax.find((p) => p.PaxNumber === t.PaxNumber);
      const number = t.Number ? `${t.Number.slice(0, 3)}-${t.Number.slice(3)}` : '';
      if (
        !t.RawData.includes(number) ||
        !pax ||
        !t.RawData.includes(pax.LastName.toUpperCase()) ||
        !t.RawData.includes('\n')
      )
        return `ticket ${t.TicketId}`;
    }
    return undefined;
  },
};

/** Runs every check; answers `name: message` for each broken rule. */
export function checkBody(body: NotificationBody): string[] {
  const failures: string[] = [];
  for (const [name, check] of Object.entries(CHECKS)) {
    const message = check(body);
    if (message !== undefined) failures.push(`${name}: ${message}`);
  }
  return failures;
}
