/**
 * What a case did, as the report keeps it (docs/verify.md "Replaying a case"): every notification it
 * sent (BookingID, UpdateDate, status, the gzip bytes and the Authorization kind, so `verify --replay`
 * can send the same bytes again), every attempt with the receiver's answer and when it started, and
 * every probe reading with what it expected. The JSON report carries it whole; JUnit as text lines.
 */
import { z } from 'zod';
import { unpackJson, wireBytes } from '../contract/index.js';
import type { Attempt, NotificationRecord } from '../delivery/index.js';
import type { CredentialKind } from './context.js';
import { acknowledged } from './evidence.js';
import type { ProbeAnswer } from './probe.js';

/** Characters of an answer body a trace keeps. */
export const TRACE_BODY_CHARS = 200;
/** The largest gzip body a trace may carry (the provider's bodies stay far below). */
const MAX_GZIP_BYTES = 4 * 1024 * 1024;
/** Entries of one case's trace a report file may hold (a burst with its redeliveries stays far below). */
const MAX_ENTRIES = 5_000;

const CREDENTIAL_KINDS = [
  'api-key',
  'wrong-key',
  'no-authorization',
  'empty-bearer',
  'key-prefix',
  'key-other-case',
  'basic',
  'other-credential',
] as const satisfies readonly CredentialKind[];

/** What a probe reading expected: a BookingStatus, `unknown` (404) or `recorded` (any status). */
const EXPECTATIONS = ['Issued', 'Voided', 'Exchanged', 'Issued-Exch', 'unknown', 'recorded'] as const;
export type Expectation = (typeof EXPECTATIONS)[number];

const ms = z.number().int().min(0).max(86_400_000);
const text = (max: number) => z.string().max(max);

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
  bookingId: z
    .number()
    .int()
    .min(0)
    .max(2 ** 53),
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
  bookingId: z
    .number()
    .int()
    .min(0)
    .max(2 ** 53),
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

/** Whether a probe answer is what a reading expected. */
export function meets(answer: Pick<ProbeAnswer, 'status' | 'bookingStatus'>, expect: Expectation): boolean {
  if (expect === 'unknown') return answer.status === 404;
  if (expect === 'recorded') return answer.status === 200 && answer.bookingStatus !== undefined;
  return answer.bookingStatus === expect;
}

/** The credential kind of a notification the kit sent (VerifyContext names credentials `verify-<kind>`). */
export function credentialOf(record: Pick<NotificationRecord, 'credentialId'>): CredentialKind {
  if (record.credentialId === 'verify') return 'api-key';
  const kind = record.credentialId.replace(/^verify-/, '');
  return (CREDENTIAL_KINDS as readonly string[]).includes(kind) ? (kind as CredentialKind) : 'api-key';
}

/** One attempt as a trace keeps it, timed from `caseStartMs` (wall clock). */
export function tracedAttempt(
  attempt: Pick<Attempt, 'outcome' | 'statusCode' | 'message' | 'responseBody' | 'durationMs' | 'batchAt'>,
  atMs: number,
): TracedAttempt {
  const body = attempt.responseBody?.trim();
  return {
    atMs: clampMs(atMs),
    durationMs: clampMs(attempt.durationMs),
    ...(attempt.batchAt ? { batchAt: attempt.batchAt } : {}),
    outcome: attempt.outcome,
    ...(attempt.statusCode == null ? {} : { status: attempt.statusCode }),
    ...(body ? { body: body.length > TRACE_BODY_CHARS ? `${body.slice(0, TRACE_BODY_CHARS)}…` : body } : {}),
    message: attempt.message.slice(0, 1_000),
    acknowledged: acknowledged(attempt),
  };
}

/** The notifications of one case (the outbox's records), in the order of their first attempts. */
export function tracedNotifications(
  records: readonly NotificationRecord[],
  caseStartMs: number,
): SentNotification[] {
  const sent = records
    .map((record) => ({
      record,
      attempts: record.attempts.filter((a) => a.outcome !== 'simulated_outage'),
    }))
    .filter((s) => s.attempts.length > 0)
    .sort((a, b) => a.attempts[0]!.startedAtWall.localeCompare(b.attempts[0]!.startedAtWall));
  return sent.map(({ record, attempts }, i) => {
    const credential = credentialOf(record);
    return {
      n: i + 1,
      bookingId: record.bookingId,
      bookingNumber: record.bookingNumber,
      bookingStatus: record.bookingStatus,
      updateDate: updateDateOf(record.packed),
      filename: record.filename,
      credential,
      ...(credential === 'wrong-key' ? { authorization: record.authorization } : {}),
      gzipBase64: wireBytes(record.packed).toString('base64'),
      attempts: attempts.map((a) => tracedAttempt(a, Date.parse(a.startedAtWall) - caseStartMs)),
    };
  });
}

/** A probe answer as a trace keeps it. */
export function probeReading(
  answer: ProbeAnswer,
  booking: { bookingId: number; bookingNumber: string },
  atMs: number,
  expect: Expectation | undefined,
): ProbeReading {
  return {
    atMs: clampMs(atMs),
    bookingId: booking.bookingId,
    bookingNumber: booking.bookingNumber,
    ...(expect ? { expect } : {}),
    url: answer.url.slice(0, 2_000),
    ...(answer.status === undefined ? {} : { status: answer.status }),
    ...(answer.bookingStatus === undefined ? {} : { bookingStatus: answer.bookingStatus.slice(0, 64) }),
    text: answer.text.slice(0, 1_000),
    ...(answer.waitedMs === undefined ? {} : { waitedMs: clampMs(answer.waitedMs) }),
    ...(answer.asks === undefined ? {} : { asks: answer.asks }),
  };
}

/** The trace as JUnit's `<system-out>` shows it: one line per attempt and per probe reading. */
export function traceLines(trace: CaseTrace): string[] {
  const lines: Array<[number, string]> = [];
  for (const n of trace.notifications)
    for (const a of n.attempts)
      lines.push([
        a.atMs,
        `+${a.atMs} ms sent #${n.n} ${n.bookingStatus} BookingID ${n.bookingId} UpdateDate ${n.updateDate} (${n.credential}${a.batchAt ? `, batch ${a.batchAt}` : ''}) -> ${a.status === undefined ? a.outcome : `HTTP ${a.status}`} after ${a.durationMs} ms${a.body ? ` ${JSON.stringify(a.body)}` : a.status === undefined ? `: ${a.message}` : ''}`,
      ]);
  for (const p of trace.probe)
    lines.push([
      p.atMs,
      `+${p.atMs} ms probe BookingID ${p.bookingId}${p.expect ? ` expecting ${p.expect}` : ''} -> ${p.status === undefined ? p.text : `HTTP ${p.status} ${p.bookingStatus ?? p.text}`}${p.asks && p.asks > 1 ? ` (after ${p.waitedMs} ms, ${p.asks} asks)` : ''}`,
    ]);
  return lines.sort((a, b) => a[0] - b[0]).map(([, line]) => line);
}

function updateDateOf(packed: Buffer): string {
  try {
    const body = JSON.parse(unpackJson(packed).toString('utf8')) as {
      Reservation?: { UpdateDate?: unknown };
    };
    const date = body.Reservation?.UpdateDate;
    return typeof date === 'string' ? date.slice(0, 40) : '';
  } catch {
    return '';
  }
}

function clampMs(value: number): number {
  return Math.min(86_400_000, Math.max(0, Math.round(value)));
}
