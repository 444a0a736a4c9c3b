/**
 * The constants the domain folders and the admin contract share, defined once here so src/model/
 * imports nothing else from src/ (a leaf of the import graph); each domain re-exports its own.
 */

/** API versions that expose GetAccessToken (spec "Versioning"). */
export const API_VERSIONS = ['1.6', '1.7'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Transport variants as the journal and fault filters name them (spec "3. GetAccessToken"). */
export const VARIANTS = ['json', 'xml', 'soap11', 'soap12'] as const;
export type Variant = (typeof VARIANTS)[number];

/** Why a call ended the way it did; journal `outcome` values. */
export const AUTH_OUTCOMES = [
  'ok',
  'invalid_credentials',
  'version_not_authorized',
  'missing_fields',
  'malformed_request',
  'payload_too_large',
  'unsupported_media_type',
  'fault',
] as const;
export type AuthOutcome = (typeof AUTH_OUTCOMES)[number];

/**
 * How one delivery attempt ended (docs/admin-api.md "Notifications"). Only `http_status` 200 is a
 * success. `interrupted`: the emulator stopped while the attempt ran (decision 0043); not the
 * receiver's failure, so it does not count toward the 5 attempts.
 */
export const ATTEMPT_OUTCOMES = [
  'http_status',
  'timeout',
  'connect_refused',
  'dns_error',
  'tls_error',
  'reset',
  'invalid_response',
  'interrupted',
  // Never the receiver's doing: an outage injected with POST /__admin/outages; nothing was sent.
  'simulated_outage',
  // The emulator died (kill -9, crash) while the attempt was in flight; found in a data dir at the
  // restart (decision 0080). The receiver may have got it, so unlike `interrupted` it counts toward
  // the 5 attempts; delivery is at-least-once.
  'interrupted_by_crash',
  // The emulator itself failed while making the attempt (a bug, a full disk): recorded as data so no
  // error escapes a background attempt (decision 0120). Not the receiver's doing: not counted.
  'emulator_error',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Reservation.BookingStatus values (spec "States and transitions"). */
export const BOOKING_STATUSES = ['Issued', 'Voided', 'Exchanged', 'Issued-Exch'] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** Events that produce a notification (spec "Events"). */
export const EVENT_TYPES = ['Issue', 'Void', 'Exchange'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
