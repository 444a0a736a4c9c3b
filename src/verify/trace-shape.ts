/**
 * The shapes of a case's trace (src/verify/trace.ts builds them; the report carries them; `verify
 * --replay` reads them back) and of a probe answer: data only, imported by the kit's modules without
 * importing any of them, so the kit's import graph has no circle.
 */
import { z } from 'zod';

/** Characters of an answer body a trace keeps. */
export const TRACE_BODY_CHARS = 200;
/** The largest gzip body a trace may carry (the provider's bodies stay far below). */
const MAX_GZIP_BYTES = 4 * 1024 * 1024;
/** Entries of one case's trace a report file may hold (a burst with its redeliveries stays far below). */
const MAX_ENTRIES = 5_000;

/**
 * Which Authorization the kit's notifications carry: the receiver's key, or one it must refuse
 * (another key, none, or a malformed one: rejects-wrong-api-key, rejects-missing-authorization).
 */
export const CREDENTIAL_KINDS = [
  'api-key',
  'wrong-key',
  'no-authorization',
  'empty-bearer',
  'key-prefix',
  'key-other-case',
  'basic',
  'other-credential',
] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** What a probe reading expected: a BookingStatus, `unknown` (404) or `recorded` (any status). */
const EXPECTATIONS = ['Issued', 'Voided', 'Exchanged', 'Issued-Exch', 'unknown', 'recorded'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

const ms = z.number().int().min(0).max(86_400_000);
const text = (max: number) => z.string().max(max);
const bookingId = z
  .number()
  .int()
  .min(0)
  .max(2 ** 53);

const TracedAttemptSchema = z.strictObject({
  /** Milliseconds from the start of the case to the start of this attempt. */
  atMs: ms,
  durationMs: ms,
  /** The redelivery batch it belonged to (emulator time), when it was one. */
  batchAt: text(40).optional(),
  /** `http_status`, `timeout`, `connect_refused`, … (docs/delivery.md). */
  outcome: text(40),
  /** The HTTP status, when a status line came back. */
  status: z.number().int().min(100).max(999).optional(),
  /** The first characters of the answer body. */
  body: text(TRACE_BODY_CHARS + 1).optional(),
  message: text(1_000),
  acknowledged: z.boolean(),
});

const SentNotificationSchema = z.strictObject({
  /** Its place in the case, from 1, in the order of first attempts. */
  n: z.number().int().min(1),
  bookingId,
  bookingNumber: text(64),
  bookingStatus: text(32),
  updateDate: text(40),
  filename: text(200),
  /** Which Authorization it carried: your key, none, or one your receiver must refuse. */
  credential: z.enum(CREDENTIAL_KINDS),
  /** The Authorization sent, only for the kit's random wrong key (never your key or one made from it). */
  authorization: text(200).optional(),
  /** The gzip body, base64: what `--replay` sends again, byte for byte. */
  gzipBase64: z
    .string()
    .max(Math.ceil(MAX_GZIP_BYTES / 3) * 4)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'is not base64'),
  attempts: z.array(TracedAttemptSchema).max(MAX_ENTRIES),
});

const ProbeReadingSchema = z.strictObject({
  /** Milliseconds from the start of the case to the first ask. */
  atMs: ms,
  bookingId,
  bookingNumber: text(64),
  /** What the check expected; absent for a reading that judged nothing. */
  expect: z.enum(EXPECTATIONS).optional(),
  url: text(2_000),
  status: z.number().int().min(100).max(999).optional(),
  bookingStatus: text(64).optional(),
  /** The answer body (shortened) or the network error. */
  text: text(1_000),
  /** Milliseconds from the first ask to this answer, and how many asks it took. */
  waitedMs: ms.optional(),
  asks: z.number().int().min(1).max(1_000_000).optional(),
});

export const CaseTraceSchema = z.strictObject({
  notifications: z.array(SentNotificationSchema).max(MAX_ENTRIES),
  probe: z.array(ProbeReadingSchema).max(MAX_ENTRIES),
});

export type TracedAttempt = z.infer<typeof TracedAttemptSchema>;
export type SentNotification = z.infer<typeof SentNotificationSchema>;
export type ProbeReading = z.infer<typeof ProbeReadingSchema>;
export type CaseTrace = z.infer<typeof CaseTraceSchema>;

/** What the probe answered for one booking. */
export interface ProbeAnswer {
  url: string;
  /** HTTP status, absent when no answer came. */
  status?: number;
  /** `BookingStatus` of a 200 answer, when it carried one. */
  bookingStatus?: string;
  /** The answer's body (shortened) or the network error. */
  text: string;
  /** The members of a 200 JSON object answer (content checks read them). */
  json?: Record<string, unknown>;
  /** `until`: milliseconds from the first ask to this answer, and how many asks it took. */
  waitedMs?: number;
  asks?: number;
}
