/**
 * String and number formats of the notification body (spec "Resources and their fields"). Each is a zod
 * schema so the same rule validates bodies and shows up in the JSON Schema (pattern, bounds, description).
 */
import { z } from 'zod';

/** Zulu datetime: UTC ISO 8601 with a trailing Z (spec "Notification body (after GZip decompression)"). */
export const zuluDateTime = () =>
  z.iso.datetime({ offset: false, local: false }).describe('UTC ISO 8601 datetime with a trailing Z');

const LOCAL_DATE_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d$/;

/** Segment dates: `yyyy-MM-ddTHH:mm:ss`, no zone (spec "Segment (each element)"), a real calendar date. */
export const localDateTime = () =>
  z
    .string()
    .regex(LOCAL_DATE_TIME, 'expected yyyy-MM-ddTHH:mm:ss with no zone, e.g. 2026-05-12T08:30:00')
    .refine(isCalendarDate, 'expected a real calendar date (e.g. no 31 April)')
    .describe('Local datetime yyyy-MM-ddTHH:mm:ss, no zone');

function isCalendarDate(s: string): boolean {
  // A string of the wrong shape is reported by the regex alone.
  if (!LOCAL_DATE_TIME.test(s)) return true;
  const d = new Date(`${s}Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 19) === s;
}

/** ISO 4217 currency code: 3 upper-case letters. */
export const currency = () =>
  z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code such as USD, EUR, BRL');
/** IATA airline designator: 2 characters, letters or digits (e.g. AA, G3, 4M). */
export const airline = () =>
  z.string().regex(/^[A-Z0-9]{2}$/, 'expected a 2-character IATA airline code such as AA, LA or G3');
/** IATA airport code: 3 letters. */
export const airport = () =>
  z.string().regex(/^[A-Z]{3}$/, 'expected a 3-letter IATA airport code such as JFK');
/** Country code: 2 letters (ISO 3166-1 alpha-2, as IATA uses). */
export const country = () =>
  z.string().regex(/^[A-Z]{2}$/, 'expected a 2-letter country code such as US, BR');

/** Number of digits after the decimal point of a finite number, exponent notation included. */
export function fractionDigits(n: number): number {
  const [mantissa = '', exponent = '0'] = String(Math.abs(n)).split('e');
  const frac = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, frac - Number(exponent));
}

/**
 * decimal(p,s) as digit limits: at most `scale` fraction digits and at most `precision - scale`
 * integer digits (spec "Limits": decimal(16,8) and decimal(20,8)).
 */
export const decimal = (precision: number, scale: number) => {
  const bound = 10 ** (precision - scale);
  return z
    .number()
    .gt(-bound)
    .lt(bound)
    .refine((n) => fractionDigits(n) <= scale, `expected at most ${scale} digits after the decimal point`)
    .describe(
      `decimal(${precision},${scale}): at most ${precision - scale} integer and ${scale} fraction digits`,
    );
};

/** decimal(16,8): Ratio.Amount and ticket/passenger amounts. */
export const decimal16 = () => decimal(16, 8);
/** decimal(20,8): Payment.Amount. */
export const decimal20 = () => decimal(20, 8);

/** Shortest and longest card number (ISO/IEC 7812 PAN lengths). */
export const CARD_NUMBER_MIN_LENGTH = 12;
export const CARD_NUMBER_MAX_LENGTH = 19;

/**
 * Masked card number (spec "Van (each element)", "Payment (each element)": PCI compliance): at most the first
 * 6 and the last 4 digits visible, the rest masked with X or *.
 */
export const maskedCardNumber = () =>
  z
    .string()
    .min(CARD_NUMBER_MIN_LENGTH)
    .max(CARD_NUMBER_MAX_LENGTH)
    .regex(
      /^[0-9]{0,6}[X*]+[0-9]{0,4}$/,
      'expected a masked card number: at most the first 6 and last 4 digits visible, the rest X or *, e.g. 411111XXXXXX1111',
    );

/** Passenger types (spec "Pax (each element)"): ADT, CHD, INF, YTH, C03 through C12. */
export const PAX_TYPES = [
  'ADT',
  'CHD',
  'INF',
  'YTH',
  'C03',
  'C04',
  'C05',
  'C06',
  'C07',
  'C08',
  'C09',
  'C10',
  'C11',
  'C12',
] as const;
export type PaxType = (typeof PAX_TYPES)[number];

const PAX_TYPE_ALT = PAX_TYPES.join('|');
/** Over.OverPaxType: ALL or passenger types joined with a vertical bar (spec "Over"). */
export const overPaxType = () =>
  z
    .string()
    .regex(
      new RegExp(`^(ALL|(${PAX_TYPE_ALT})(\\|(${PAX_TYPE_ALT}))*)$`),
      `expected ALL or passenger types joined with |, e.g. ADT|CHD; types: ${PAX_TYPES.join(', ')}`,
    );

/** Payment.Reference: ALL or comma-separated passenger numbers (spec "Payment (each element)"). */
export const paymentReference = () =>
  z
    .string()
    .regex(/^(ALL|[1-9]\d*(,[1-9]\d*)*)$/, 'expected ALL or passenger numbers separated by commas, e.g. 1,2');

/** 13-digit ticket number: 3-digit airline prefix + 10-digit serial. */
export const ticketNumber = () =>
  z.string().regex(/^\d{13}$/, 'expected a 13-digit ticket number (3-digit airline prefix + 10 digits)');
