/** RawData: a plausible multi-line raw ticket text naming the ticket number and the passenger. */
import type { Segment } from '../contract/index.js';
import type { Traveller } from './passengers.js';
import type { Currency } from './reference/index.js';
import { formatAmount, gdsDate } from './units.js';

export interface RawTicket {
  kind: 'ETK' | 'EMD';
  number: string;
  subType: string;
  pax: Traveller;
  coupons: readonly Segment[];
  couponOffset: number;
  currency: Currency;
  fareMinor: number;
  taxMinor: number;
  totalMinor: number;
  issuedAt: string;
  pccIssue: string;
  fop: string;
}

/** Renders the raw ticket text (GDS-style lines separated by \n). */
export function rawTicketText(t: RawTicket): string {
  const c = t.currency.code;
  const lines = [
    `${t.kind === 'ETK' ? 'ETKT' : 'EMD'} ${t.number.slice(0, 3)}-${t.number.slice(3)} ${t.subType.toUpperCase()} ISSUED ${gdsDate(t.issuedAt, true)} PCC ${t.pccIssue}`,
    `NAME ${t.pax.LastName.toUpperCase()}/${t.pax.FirstName.toUpperCase()} ${t.pax.Type} PAX ${t.pax.PaxNumber}`,
  ];
  t.coupons.forEach((s, i) => {
    lines.push(
      `${t.couponOffset + i + 1} ${s.Airline}${String(s.Number).padStart(4, ' ')} ${s.BookingClass} ${gdsDate(s.DepartureDate)} ${s.DepartureAirport}${s.ArrivalAirport} ${s.DepartureDate.slice(11, 13)}${s.DepartureDate.slice(14, 16)} OK`,
    );
  });
  if (t.kind === 'ETK') {
    lines.push(
      `FARE ${c} ${formatAmount(t.fareMinor, t.currency)} TAX ${c} ${formatAmount(t.taxMinor, t.currency)} TOTAL ${c} ${formatAmount(t.totalMinor, t.currency)}`,
    );
  } else {
    lines.push(`TOTAL ${c} ${formatAmount(t.totalMinor, t.currency)}`);
  }
  lines.push(`FOP ${t.fop}`);
  return lines.join('\n');
}
