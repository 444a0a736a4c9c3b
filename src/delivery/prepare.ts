import type { NotificationBody } from '../contract/index.js';
import type { Credential } from './credential-schema.js';

/**
 * Spec "1. Notification delivery (outbound from the service)", header table: the fixed identifier of the
 * sending service.
 */
export const USER_AGENT = 'Service-ReportBO';

/**
 * The Content-Disposition file name: `<yyyyMMdd_HHmmssZ>-<BookingNumber>.json`, the time being the
 * body's Reservation.UpdateDate in UTC (spec "1. Notification delivery (outbound from the service)": "date,
 * underscore, time, trailing Z").
 */
export function notificationFilename(body: NotificationBody): string {
  const iso = new Date(body.Reservation.UpdateDate).toISOString(); // 2026-04-27T10:00:00.000Z
  // join, not concatenation: the outbox keeps this string per notification, and `a + b` chains are
  // kept as trees of cons strings (about 200 bytes here) where join makes one flat string (about 60).
  return [
    iso.slice(0, 4),
    iso.slice(5, 7),
    iso.slice(8, 10),
    '_',
    iso.slice(11, 13),
    iso.slice(14, 16),
    iso.slice(17, 19),
    'Z-',
    body.Reservation.BookingNumber,
    '.json',
  ].join('');
}

/** The characters a BookingNumber may hold: it is part of the unquoted Content-Disposition filename. */
export const FILENAME_ALPHABET = /^[A-Za-z0-9._-]+$/;

/**
 * Why `bookingNumber` cannot be part of the Content-Disposition filename, or undefined when it can:
 * the filename is an unquoted header parameter, so it must be a token, and a receiver saves it as a
 * file name, so it holds letters, digits, ".", "_" and "-" only.
 */
export function bookingNumberProblem(bookingNumber: string): string | undefined {
  if (FILENAME_ALPHABET.test(bookingNumber)) return undefined;
  if (bookingNumber === '') return 'is empty; the filename <yyyyMMdd_HHmmssZ>-<BookingNumber>.json needs it';
  const bad = [...bookingNumber].find((c) => !FILENAME_ALPHABET.test(c))!;
  const shown =
    bad === '\r'
      ? 'a line break (CR)'
      : bad === '\n'
        ? 'a line break (LF)'
        : `"${bad}" (U+${bad.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
  return `contains ${shown}; it is part of the Content-Disposition filename, which holds letters, digits, ".", "_" and "-" only`;
}

// One `Bearer <apiKey>` string per credential, shared by all its notifications (100,000 pending
// notifications would otherwise hold 100,000 copies). Credentials are immutable once stored.
const authorizations = new WeakMap<Credential, string>();

/**
 * The Authorization header value of a credential, `Bearer <apiKey>`
 * (spec "1. Notification delivery (outbound from the service)"); the empty string for a verify-kit
 * credential that sends none (`Credential.omitAuthorization`).
 */
export function authorizationOf(credential: Credential): string {
  if (credential.omitAuthorization) return '';
  if (credential.authorization !== undefined) return credential.authorization;
  let value = authorizations.get(credential);
  if (value === undefined) {
    value = `Bearer ${credential.apiKey}`;
    authorizations.set(credential, value);
  }
  return value;
}

/**
 * The headers of spec "1. Notification delivery (outbound from the service)" for one notification. They are a
 * pure function of what the outbox keeps (credential's Authorization, file name, body length), so a record
 * keeps those parts and each attempt builds the object, instead of every pending notification holding its
 * own.
 */
export function deliveryHeaders(
  authorization: string,
  filename: string,
  bodyLength: number,
): DeliveryHeaders {
  if (authorization === '') return withoutAuthorization(filename, bodyLength);
  return {
    'User-Agent': USER_AGENT,
    Authorization: authorization,
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
    'Content-Length': String(bodyLength),
    'Content-Disposition': `attachment; filename=${filename}`,
  };
}

/** The headers of one attempt; Authorization is absent only for a verify-kit credential. */
export type DeliveryHeaders = {
  'User-Agent': string;
  Authorization?: string;
  'Content-Type': string;
  'Content-Encoding': string;
  'Content-Length': string;
  'Content-Disposition': string;
};

/** The verify kit's rejects-missing-authorization request: every header but Authorization. */
function withoutAuthorization(filename: string, bodyLength: number): DeliveryHeaders {
  return {
    'User-Agent': USER_AGENT,
    'Content-Type': 'application/json',
    'Content-Encoding': 'gzip',
    'Content-Length': String(bodyLength),
    'Content-Disposition': `attachment; filename=${filename}`,
  };
}
