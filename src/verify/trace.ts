/**
 * What a case did, as the report keeps it (docs/verify.md "Replaying a case"): every notification it
 * sent (BookingID, UpdateDate, status, the gzip bytes and the Authorization kind, so `verify --replay`
 * can send the same bytes again), every attempt with the receiver's answer and when it started, and
 * every probe reading with what it expected. The JSON report carries it whole; JUnit as text lines.
 */
import { gunzipSync } from 'node:zlib';
import type { Attempt, NotificationRecord } from '../delivery/index.js';
import { acknowledged } from './evidence.js';
import {
  type CaseTrace,
  CREDENTIAL_KINDS,
  type CredentialKind,
  type Expectation,
  type ProbeAnswer,
  type ProbeReading,
  type SentNotification,
  TRACE_BODY_CHARS,
  type TracedAttempt,
} from './trace-shape.js';

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
    const gz = record.gz.bytes(); // one read of the body file for both fields
    return {
      n: i + 1,
      bookingId: record.bookingId,
      bookingNumber: record.bookingNumber,
      bookingStatus: record.bookingStatus,
      updateDate: updateDateOf(gz),
      filename: record.filename,
      credential,
      ...(credential === 'wrong-key' ? { authorization: record.authorization } : {}),
      gzipBase64: gz.toString('base64'),
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

function updateDateOf(gz: Buffer): string {
  try {
    const body = JSON.parse(gunzipSync(gz).toString('utf8')) as { Reservation?: { UpdateDate?: unknown } };
    const date = body.Reservation?.UpdateDate;
    return typeof date === 'string' ? date.slice(0, 40) : '';
  } catch {
    return '';
  }
}

function clampMs(value: number): number {
  return Math.min(86_400_000, Math.max(0, Math.round(value)));
}
