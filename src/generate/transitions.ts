/**
 * Bodies after a lifecycle event, derived from the reservation's current body (decisions 0007
 * and 0008): Void and redelivery change only the status and UpdateDate; an Exchange
 * marks the old body Exchanged and builds a re-priced Issued-Exch body for the new BookingID.
 */
import type { BookingStatus, NotificationBody } from '../contract/index.js';
import { orderMembers, orderReservation, priceBooking } from './booking.js';
import { shiftSegments } from './itinerary.js';
import { Rng } from './random.js';
import { AIRLINES_BY_CODE, type Airline, CURRENCIES, type Currency } from './reference/index.js';
import { zulu } from './units.js';

function withReservation(
  body: NotificationBody,
  patch: Partial<NotificationBody['Reservation']>,
): NotificationBody {
  return { ...body, Reservation: orderReservation({ ...body.Reservation, ...patch }) };
}

/** The same booking with a new status, notified at `atMs` (UpdateDate = event time). */
export function withStatus(body: NotificationBody, status: BookingStatus, atMs: number): NotificationBody {
  return withReservation(structuredClone(body), { BookingStatus: status, UpdateDate: zulu(atMs) });
}

/** Old and new bodies of an Exchange of `previous` at `atMs`. */
export function exchangeBodies(
  previous: NotificationBody,
  opts: { seed: number; atMs: number; newBookingId: number },
): { old: NotificationBody; created: NotificationBody } {
  const old = withReservation(withStatus(previous, 'Exchanged', opts.atMs), {
    ExchangedTo: opts.newBookingId,
  });
  const rng = new Rng(opts.seed);
  const r = previous.Reservation;
  const issuedAt = zulu(opts.atMs);
  // The reissue keeps passengers, route, carrier and currency; dates move by 1–14 days.
  const segments = shiftSegments(rng, previous.Segment, rng.int(1, 14));
  const travellers = previous.Pax.map(({ Purchase: _purchase, ...t }) => t);
  const priced = priceBooking(rng, {
    carrier: carrierOf(previous),
    travellers,
    segments,
    currency: currencyOf(previous),
    issuedAt,
    pccIssue: r.PCCIssue,
    partner: r.PartnerCC !== undefined || previous.Fees.PartnerFees.CFEE !== undefined,
  });
  const { ExchangedTo: _to, ...rest } = structuredClone(r);
  const created: NotificationBody = orderMembers({
    ...structuredClone(previous),
    Reservation: {
      ...rest,
      BookingStatus: 'Issued-Exch',
      UpdateDate: issuedAt,
      TicketingDate: issuedAt,
      BookingID: opts.newBookingId,
      ExchangedFrom: r.BookingID,
    },
    Fees: priced.Fees,
    Payment: priced.Payment,
    Ticket: priced.Ticket,
    Segment: segments,
    Pax: priced.Pax,
    Tax: priced.Tax,
  });
  return { old, created };
}

/** The validating carrier of a body; an unknown (overridden) code keeps its ticket prefix. */
function carrierOf(body: NotificationBody): Airline {
  const code = body.Reservation.ValidatingCarrier;
  const known = AIRLINES_BY_CODE.get(code);
  if (known) return known;
  const prefix = body.Ticket.find((t) => t.Number)?.Number?.slice(0, 3) ?? '999';
  return { code, prefix, hubs: [] };
}

/** The selling currency of a body (fees carry it even when there are no tickets). */
function currencyOf(body: NotificationBody): Currency {
  const code = body.Fees.ApiFees.Currency;
  return CURRENCIES.get(code) ?? { code, minorDigits: 2, usdPerUnit: 1 };
}
