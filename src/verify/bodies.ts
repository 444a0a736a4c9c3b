/**
 * The two edge bodies of accepts-minimal-body and accepts-maximal-body, built from the seeded
 * generator and checked against the notification contract, so the kit never sends a body the
 * provider could not send.
 */
import { z } from 'zod';
import { assertValidBody, type NotificationBody, NotificationBodyStrictSchema } from '../contract/index.js';
import { generateNotification, MAX_SEED } from '../generate/index.js';

/** Passengers of the maximal body: the generator's (and a GDS booking's) most. */
export const MAX_PAX = 9;
/** Flight segments of the maximal body: the generator's longest itinerary. */
export const MAX_SEGMENTS = 8;
/** Characters appended to the maximal body's first RawData. */
export const LONG_RAW_DATA_CHARS = 16 * 1024;
/** Seeds tried for a maximal body whose payments include a card and whose taxes all carry details. */
const MAX_SEED_TRIES = 500;

/** Names outside ASCII (two- and three-byte UTF-8), one pair per passenger of the maximal body. */
export const NON_ASCII_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['Zoë', 'Müller-Lüdenscheidt'],
  ['François', 'Ångström'],
  ['Łukasz', 'Dvořák'],
  ['Søren', 'Ærøskøbing'],
  ['Şükrü', 'Çelik'],
  ['Íñigo', 'García Núñez'],
  ['Nguyễn', 'Thị Minh Khai'],
  ['Σοφία', 'Παπαδοπούλου'],
  ['Юлия', 'Владимирова'],
];

type Schema = z.ZodType;

/**
 * `body` with every optional member and field left out, walking the contract schema (so a member
 * the spec marks optional is never forgotten). A CreditCard stays while its payment is by card:
 * the spec makes it present when FOPtype is CC.
 */
export function minimalBody(seed: number, at: Date): NotificationBody {
  const { target } = generateNotification({ event: 'Issue', seed, at, shape: { pax: 1, segments: 1 } });
  const stripped = strip(target, NotificationBodyStrictSchema) as NotificationBody;
  return assertValidBody(NotificationBodyStrictSchema, stripped, 'The minimal body');
}

function strip(value: unknown, schema: Schema): unknown {
  if (schema instanceof z.ZodOptional) return strip(value, schema.unwrap() as Schema);
  if (schema instanceof z.ZodArray && Array.isArray(value))
    return value.map((v) => strip(v, schema.element as Schema));
  if (schema instanceof z.ZodDiscriminatedUnion) {
    const option = (schema.options as Schema[]).find((o) => o.safeParse(value).success);
    return option ? strip(value, option) : value;
  }
  if (schema instanceof z.ZodObject && value !== null && typeof value === 'object') {
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, member] of Object.entries(source)) {
      const field = schema.shape[key] as Schema | undefined;
      if (!field) continue;
      const keepCard = key === 'CreditCard' && source.FOPtype === 'CC';
      if (field.safeParse(undefined).success && !keepCard) continue;
      out[key] = strip(member, field);
    }
    return out;
  }
  return value;
}

/**
 * The largest body the kit sends: 9 passengers with names outside ASCII, 8 segments, every optional
 * member present, a RawData of 16 KiB more. Its status is Exchanged with ExchangedFrom and ExchangedTo
 * (a reservation made by an exchange and exchanged again), the one status that carries both.
 */
export function maximalBody(seed: number, at: Date): NotificationBody {
  const body = generateMaximal(seed, at);
  const r = body.Reservation;
  r.BookingStatus = 'Exchanged';
  r.ExchangedFrom = r.BookingID >= 9_999_999 ? r.BookingID - 1 : r.BookingID + 1;
  r.ExchangedTo = r.BookingID >= 9_999_998 ? r.BookingID - 2 : r.BookingID + 2;
  r.ExternalID ??= 'EXT-00000001';
  r.PartnerCC ??= 'PRT';
  r.PartnerUser ??= 'agent.001';
  r.BuyerDocument ??= '12345678901';
  body.Commission.PartnerCDISC ??= 0.5;
  body.Over.OverCalculation ??= 'D';
  body.Over.PartnerODISC ??= 0.25;
  body.Fees.ApiFees.ContentCost ??= 1.5;
  body.Fees.PartnerFees.CFEE ??= 10;
  body.Fees.PartnerFees.AFEE ??= 5;
  body.Remark ??= [{ PaxNumber: 1, Type: 'COSTCENTER', Text: 'Département Qualité' }];
  body.Ratio ??= [{ Currency: 'USD', Amount: 1, TargetCurrency: 'USD' }];
  body.Van ??= [{ Used: true, CardType: 'VISA', CardNumber: '411111XXXXXX1111' }];
  for (const p of body.Payment) {
    if (!p.CreditCard) continue;
    p.CreditCard.AuthCode ??= 'A1B2C3';
    p.CreditCard.Installments ??= 1;
  }
  for (const [i, pax] of body.Pax.entries()) {
    const [first, last] = NON_ASCII_NAMES[i % NON_ASCII_NAMES.length]!;
    pax.FirstName = first;
    pax.LastName = last;
  }
  const first = body.Ticket[0]!;
  const names = body.Pax.map((p) => `${p.LastName}/${p.FirstName}`).join(' ');
  let extra = `\nPASSENGERS ${names}\n`;
  while (extra.length < LONG_RAW_DATA_CHARS)
    extra += `FC ${r.ValidatingCarrier} ${body.Segment.map((s) => `${s.DepartureAirport}-${s.ArrivalAirport}`).join(' ')} END\n`;
  first.RawData += extra;
  return assertValidBody(NotificationBodyStrictSchema, body, 'The maximal body');
}

/** A 9-passenger, 8-segment body paid by card with tax details on every ticket (first seed that has them). */
function generateMaximal(seed: number, at: Date): NotificationBody {
  let body: NotificationBody | undefined;
  for (let i = 0; i < MAX_SEED_TRIES; i++) {
    body = generateNotification({
      event: 'Issue',
      seed: (seed + i) % MAX_SEED,
      at,
      shape: { pax: MAX_PAX, segments: MAX_SEGMENTS },
    }).target;
    if (body.Payment.some((p) => p.CreditCard) && body.Tax.every((t) => t.TaxDetails)) break;
  }
  return structuredClone(body!);
}
