/** Assembles a whole notification body for a freshly issued booking, and re-prices one. */
import type { NotificationBody, Segment } from '../contract/index.js';
import { buildFees, buildIncentives, buildProduct, buildRatios, buildRemarks, buildVans } from './extras.js';
import { buildItinerary } from './itinerary.js';
import { seededNames } from './names.js';
import { buildTravellers, type Traveller } from './passengers.js';
import { buildPayments, chooseFormOfPayment } from './payments.js';
import { DIGITS, LETTERS, LOCATOR_ALPHABET, Rng } from './random.js';
import { type Airline, CURRENCIES, CURRENCY_BY_COUNTRY, type Currency } from './reference/index.js';
import { buildTickets } from './tickets.js';
import { DAY_MS, toAmount, zulu } from './units.js';

/** Size of a booking; anything left out is drawn from realistic distributions. */
export interface BookingShape {
  /** Passengers, 1–9. */
  pax?: number;
  /** Flight segments, 1–8. */
  segments?: number;
}

/** Lowest and highest BookingID the generator draws (7 digits, like the admin API examples). */
export const BOOKING_ID_MIN = 1_000_000;
export const BOOKING_ID_MAX = 9_999_999;
/** Providers (GDS codes); the spec's providers list is not published. */
export const PROVIDERS = ['1A', '1S', '1G', '1V'] as const;
const MAX_DAYS_BOOKED_BEFORE_TICKETING = 30;

export interface PricingContext {
  carrier: Airline;
  travellers: readonly Traveller[];
  segments: readonly Segment[];
  currency: Currency;
  issuedAt: string;
  pccIssue: string;
  partner: boolean;
}

/** Tickets, taxes, fees, payments and Pax.Purchase for a booking, all reconciling. */
export function priceBooking(rng: Rng, ctx: PricingContext) {
  const fop = chooseFormOfPayment(rng);
  const priced = buildTickets(rng, { ...ctx, fop: fop.raw, withTaxDetails: rng.chance(0.95) });
  const { Fees, chargedMinor } = buildFees(rng, ctx.currency, ctx.partner);
  const etkByPax = new Map<number, number>();
  for (const [pax, p] of priced.purchase) etkByPax.set(pax, p.fare + p.tax);
  const Payment = buildPayments(rng, {
    fop,
    currency: ctx.currency,
    etkByPax,
    feesMinor: chargedMinor,
    emdByPax: priced.emdByPax,
  });
  const Pax: NotificationBody['Pax'] = ctx.travellers.map((t) => {
    const p = priced.purchase.get(t.PaxNumber) ?? { fare: 0, tax: 0 };
    return {
      ...t,
      Purchase: {
        Currency: ctx.currency.code,
        Fare: toAmount(p.fare, ctx.currency),
        Tax: toAmount(p.tax, ctx.currency),
      },
    };
  });
  return { Fees, Payment, Ticket: priced.Ticket, Tax: priced.Tax, Pax };
}

export interface IssueOptions {
  seed: number;
  /** Event time: UpdateDate and TicketingDate (whole seconds). */
  atMs: number;
  bookingId?: number;
  shape?: BookingShape;
}

/** A complete, internally consistent body of a newly issued booking (BookingStatus Issued). */
export function buildIssuedBody(opts: IssueOptions): NotificationBody {
  const rng = new Rng(opts.seed);
  const names = seededNames(rng.seed());
  const { carrier, segments } = buildItinerary(rng, opts.atMs, opts.shape?.segments);
  const travellers = buildTravellers(rng, names, opts.shape?.pax);
  const firstCountry = segments[0]?.DepartureCountry ?? 'US';
  const currencyCode = rng.chance(0.8) ? (CURRENCY_BY_COUNTRY[firstCountry] ?? 'USD') : 'USD';
  const currency = CURRENCIES.get(currencyCode)!;
  const partner = rng.chance(0.5);
  const pccBook = rng.chars(4, LOCATOR_ALPHABET);
  const pccIssue = rng.chance(0.7) ? pccBook : rng.chars(4, LOCATOR_ALPHABET);
  const issuedAt = zulu(opts.atMs);
  const bookedMs = opts.atMs - Math.floor(rng.next() * MAX_DAYS_BOOKED_BEFORE_TICKETING * DAY_MS);

  // Values are drawn in a fixed order, then laid out in the spec's field order.
  const bookingNumber = rng.chars(6, LOCATOR_ALPHABET);
  const bookingId = opts.bookingId ?? rng.int(BOOKING_ID_MIN, BOOKING_ID_MAX);
  const externalId = rng.chance(0.3) ? `EXT-${rng.chars(8, DIGITS)}` : undefined;
  const Reservation: NotificationBody['Reservation'] = {
    BookingNumber: bookingNumber,
    BookingStatus: 'Issued',
    UpdateDate: issuedAt,
    TicketingDate: issuedAt,
    BookingDate: zulu(bookedMs),
    BookingID: bookingId,
    ...(externalId ? { ExternalID: externalId } : {}),
    Provider: rng.pick(PROVIDERS),
    PCCBook: pccBook,
    PCCIssue: pccIssue,
    ValidatingCarrier: carrier.code,
    AirlineLocator: rng.chars(6, LETTERS),
  };
  if (partner) {
    Reservation.PartnerCC = rng.chars(3, LETTERS);
    Reservation.PartnerUser = `${names.firstName('female').toLowerCase()}.${rng.chars(3, DIGITS)}`;
  }
  if (rng.chance(0.4)) Reservation.BuyerDocument = rng.chars(rng.pick([8, 11]), DIGITS);

  const { Commission, Over } = buildIncentives(
    rng,
    partner,
    travellers.map((t) => t.Type),
  );
  const priced = priceBooking(rng, { carrier, travellers, segments, currency, issuedAt, pccIssue, partner });
  const body: NotificationBody = {
    FileType: 'Air',
    Reservation,
    Commission,
    Over,
    Fees: priced.Fees,
    Product: buildProduct(rng, names),
    Payment: priced.Payment,
    Ticket: priced.Ticket,
    Segment: segments,
    Pax: priced.Pax,
    Tax: priced.Tax,
  };
  if (rng.chance(0.5)) body.Remark = buildRemarks(rng, travellers.length);
  if (rng.chance(0.6)) body.Ratio = buildRatios(currency);
  if (rng.chance(0.3)) body.Van = buildVans(rng);
  return orderMembers(body);
}

const TOP_LEVEL_ORDER = [
  'FileType',
  'Reservation',
  'Commission',
  'Over',
  'Fees',
  'Remark',
  'Product',
  'Ratio',
  'Van',
  'Payment',
  'Ticket',
  'Segment',
  'Pax',
  'Tax',
] as const;

const RESERVATION_ORDER = [
  'BookingNumber',
  'BookingStatus',
  'UpdateDate',
  'TicketingDate',
  'BookingDate',
  'BookingID',
  'ExchangedTo',
  'ExchangedFrom',
  'ExternalID',
  'Provider',
  'PCCBook',
  'PCCIssue',
  'ValidatingCarrier',
  'AirlineLocator',
  'PartnerCC',
  'PartnerUser',
  'BuyerDocument',
] as const;

function ordered<T extends object>(value: T, order: readonly string[]): T {
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of order) if (source[key] !== undefined) out[key] = source[key];
  for (const [key, v] of Object.entries(source)) if (!(key in out)) out[key] = v;
  return out as T;
}

/**
 * Top-level and Reservation members in the order of the spec's tables, which is the contract
 * schema's order: the strict parse the store runs answers the same bytes (`generate` relies on it
 * to skip that parse, test/generate-fast-path.test.ts).
 */
export function orderMembers(body: NotificationBody): NotificationBody {
  const out = ordered(body, TOP_LEVEL_ORDER);
  out.Reservation = orderReservation(out.Reservation);
  return out;
}

/** Reservation members in the schema's order (ExchangedTo/ExchangedFrom right after BookingID). */
export function orderReservation(r: NotificationBody['Reservation']): NotificationBody['Reservation'] {
  return ordered(r, RESERVATION_ORDER);
}
