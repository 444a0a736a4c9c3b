/**
 * The two edge bodies of accepts-minimal-body and accepts-maximal-body, built from the seeded
 * generator and checked against the notification contract, so the kit never sends a body the
 * provider could not send.
 */
import { z } from 'zod';
import { assertValidBody, type NotificationBody, NotificationBodyStrictSchema } from '../contract/index.js';
import { generateNotification, MAX_SEED } from '../generate/index.js';
import { Rng } from '../generate/random.js';

/** Passengers of the maximal body: the generator's (and a GDS booking's) most. */
export const MAX_PAX = 9;
/** Flight segments of the maximal body: the generator's longest itinerary. */
export const MAX_SEGMENTS = 8;
/** Characters appended to the maximal body's first RawData. */
export const LONG_RAW_DATA_CHARS = 16 * 1024;
/** The maximal body's first Ratio.Amount: all 8 decimals of decimal(16,8) (a float32 or a rounding loses them). */
export const MAXIMAL_RATIO_AMOUNT = 1234.56789012;
/** Seeds tried for a maximal body whose payments include a card and whose taxes all carry details. */
const MAX_SEED_TRIES = 500;

/**
 * Real names outside ASCII, one pair per passenger of the maximal body: two- and three-byte UTF-8,
 * right-to-left letters (Hebrew), a character outside the Basic Multilingual Plane (𠮷, U+20BB7, of the
 * Japanese surname Yoshino: four bytes, refused by a 3-byte "utf8" column), combining marks (Nguyễn
 * written decomposed, as macOS and some keyboards send it), and a long double-barrelled surname.
 */
export const NON_ASCII_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['Zoë', 'Müller-Lüdenscheidt'],
  ['François', 'Ångström'],
  ['Łukasz', 'Dvořák'],
  ['Søren', 'Ærøskøbing-Wolfeschlegelsteinhausenbergerdorff'],
  ['נועה', 'בן דוד'],
  ['太郎', '𠮷野'],
  ['Nguye\u0302\u0303n', 'Thi\u0323 Minh Khai'],
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
  body.Ratio[0]!.Amount = MAXIMAL_RATIO_AMOUNT;
  body.Van ??= [{ Used: true, CardType: 'VISA', CardNumber: '411111XXXXXX1111' }];
  for (const p of body.Payment) {
    if (!p.CreditCard) continue;
    p.CreditCard.AuthCode ??= 'A1B2C3';
    p.CreditCard.Installments ??= 1;
  }
  nonAsciiNames(body);
  longRawData(body);
  return assertValidBody(NotificationBodyStrictSchema, body, 'The maximal body');
}

function nonAsciiNames(body: NotificationBody): void {
  for (const [i, pax] of body.Pax.entries()) {
    const [first, last] = NON_ASCII_NAMES[i % NON_ASCII_NAMES.length]!;
    pax.FirstName = first;
    pax.LastName = last;
  }
}

function longRawData(body: NotificationBody): void {
  const first = body.Ticket[0]!;
  const names = body.Pax.map((p) => `${p.LastName}/${p.FirstName}`).join(' ');
  let extra = `\nPASSENGERS ${names}\n`;
  while (extra.length < LONG_RAW_DATA_CHARS)
    extra += `FC ${body.Reservation.ValidatingCarrier} ${body.Segment.map((s) => `${s.DepartureAirport}-${s.ArrivalAirport}`).join(' ')} END\n`;
  first.RawData += extra;
}

/**
 * An ordinary Issue with every optional array present and empty (Remark, Ratio, Van and each Tax's
 * TaxDetails: "optional fields may be omitted when they hold no data", and an empty array holds none),
 * and the same body with them full (`reference`: the experiments show "with one element: 200" from it).
 */
export function emptyArraysBody(
  seed: number,
  at: Date,
): { body: NotificationBody; reference: NotificationBody } {
  let reference: NotificationBody | undefined;
  for (let i = 0; i < MAX_SEED_TRIES; i++) {
    reference = structuredClone(
      generateNotification({ event: 'Issue', seed: (seed + i) % MAX_SEED, at }).target,
    );
    if (reference.Tax.length > 0 && reference.Tax.every((t) => t.TaxDetails?.length)) break;
  }
  const full = reference!;
  full.Remark ??= [{ PaxNumber: 1, Type: 'COSTCENTER', Text: 'Département Qualité' }];
  full.Ratio ??= [{ Currency: 'USD', Amount: 1, TargetCurrency: 'USD' }];
  full.Van ??= [{ Used: true, CardType: 'VISA', CardNumber: '411111XXXXXX1111' }];
  const body = structuredClone(full);
  body.Remark = [];
  body.Ratio = [];
  body.Van = [];
  for (const t of body.Tax) t.TaxDetails = [];
  return {
    body: assertValidBody(NotificationBodyStrictSchema, body, 'The body with empty arrays'),
    reference: assertValidBody(NotificationBodyStrictSchema, full, 'The body with full arrays'),
  };
}

/** The traits of the maximal body, each alone on an ordinary Issue (which one a receiver refuses). */
export const MAXIMAL_TRAITS = [
  'status Exchanged with ExchangedFrom and ExchangedTo',
  `RawData ${LONG_RAW_DATA_CHARS / 1024} KiB longer`,
  'names outside ASCII',
  `${MAX_PAX} passengers and ${MAX_SEGMENTS} segments`,
] as const;

/** One body per trait of MAXIMAL_TRAITS, each otherwise ordinary. */
export function maximalTraitBodies(seed: number, at: Date): Array<{ trait: string; body: NotificationBody }> {
  let n = 0;
  // A seed each: four bookings, not four notifications of one.
  const next = () => (seed + ++n) % MAX_SEED;
  const plain = () => structuredClone(generateNotification({ event: 'Issue', seed: next(), at }).target);
  const exchanged = plain();
  const r = exchanged.Reservation;
  r.BookingStatus = 'Exchanged';
  r.ExchangedFrom = r.BookingID >= 9_999_999 ? r.BookingID - 1 : r.BookingID + 1;
  r.ExchangedTo = r.BookingID >= 9_999_998 ? r.BookingID - 2 : r.BookingID + 2;
  const long = plain();
  longRawData(long);
  const names = plain();
  nonAsciiNames(names);
  const wide = structuredClone(
    generateNotification({
      event: 'Issue',
      seed: next(),
      at,
      shape: { pax: MAX_PAX, segments: MAX_SEGMENTS },
    }).target,
  );
  return [exchanged, long, names, wide].map((body, i) => ({
    trait: MAXIMAL_TRAITS[i]!,
    body: assertValidBody(NotificationBodyStrictSchema, body, `The body with ${MAXIMAL_TRAITS[i]}`),
  }));
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

/** The large body's size on the wire (gzip): where request-size limits of proxies and frameworks bite. */
export const LARGE_BODY_GZ_BYTES = 64 * 1024;
const LARGE_LINE_CHARS = 64;
const RAW_DATA_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 /.-';

/**
 * An ordinary Issue whose first RawData is long and varied (seeded ticket-like lines, no repeats),
 * so it does not compress: about LARGE_BODY_GZ_BYTES on the wire, where the maximal body's repeated
 * lines pack to a few KB.
 */
export function largeBody(seed: number, at: Date): NotificationBody {
  const body = structuredClone(generateNotification({ event: 'Issue', seed, at }).target);
  const rng = new Rng(seed ^ 0x1a46e);
  const lines: string[] = [];
  // Random text of this alphabet packs to about 0.7 bytes a character; a little over is fine.
  const chars = Math.ceil(LARGE_BODY_GZ_BYTES / 0.68);
  for (let n = 0; n < chars; n += LARGE_LINE_CHARS + 1)
    lines.push(rng.chars(LARGE_LINE_CHARS, RAW_DATA_ALPHABET));
  body.Ticket[0]!.RawData += `\n${lines.join('\n')}`;
  return assertValidBody(NotificationBodyStrictSchema, body, 'The large body');
}

/** An ordinary Issue whose dates (UpdateDate included) lie `daysAgo` days before `now`. */
export function oldBody(seed: number, now: Date, daysAgo: number): NotificationBody {
  const at = new Date(now.getTime() - daysAgo * 86_400_000);
  return structuredClone(generateNotification({ event: 'Issue', seed, at }).target);
}
