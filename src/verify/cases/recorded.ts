/** Cases that read back, through --probe, what the receiver recorded. */
import type { NotificationRecord } from '../../delivery/index.js';
import type { VerifyContext } from '../context.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { type Probe, type ProbeAnswer, probeEvidence, recordedText } from '../probe.js';
import type { Evidence } from '../types.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, MINUTE_MS, type Outcome, passed } from './case.js';

/** A BookingID the generator never draws (it draws 1000000–9999999): unknown to every receiver. */
const UNKNOWN_BOOKING_ID = 1;
/** A BookingNumber the generator never draws (its alphabet has no 0, 1, O or I). */
const UNKNOWN_BOOKING_NUMBER = 'VERIFY0';

interface Check {
  what: string;
  booking: { bookingId: number; bookingNumber: string };
  /** Expected BookingStatus, or null for "unknown" (404). */
  expected: string | null;
  /** The probe's answer when it was read mid-flow (else it is read at the end). */
  answer?: ProbeAnswer;
}

/** Probes every check; the verdict names each mismatch. */
async function judgeRecorded(
  probe: Probe,
  checks: Check[],
  sent: NotificationRecord[],
  apiKey: string,
  notes: string[],
): Promise<Outcome> {
  const evidence: Evidence[] = [];
  const wrong: string[] = [];
  for (const check of checks) {
    const answer = check.answer ?? (await probe.get(check.booking));
    evidence.push(probeEvidence(answer, `${check.what}: expected ${check.expected ?? '404 (unknown)'}`));
    const ok = check.expected === null ? answer.status === 404 : answer.bookingStatus === check.expected;
    if (!ok)
      wrong.push(
        `${check.what}: expected ${check.expected ?? '404 (unknown)'}, the probe says ${recordedText(answer)}`,
      );
  }
  const unacked = sent.filter((r) => !acknowledged(r.attempts.at(-1)));
  const ackNote = unacked.length
    ? ` (${unacked.length} of the notifications were not acknowledged: ${unacked.map((r) => `${r.bookingStatus} → ${shortAnswer(r.attempts.at(-1))}`).join(', ')})`
    : '';
  const noteText = notes.length ? `; ${notes.join('; ')}` : '';
  if (wrong.length > 0) {
    return failed(`${wrong.join('; ')}${ackNote}`, [
      ...evidence,
      ...sent.filter((r) => unacked.includes(r)).map((r) => evidenceOf(r, apiKey)),
    ]);
  }
  return passed(
    `the probe reported the last status of every flow (${checks.length} checks)${ackNote}${noteText}`,
    evidence,
  );
}

const booking = (r: { bookingId: number; bookingNumber: string }) => ({
  bookingId: r.bookingId,
  bookingNumber: r.bookingNumber,
});

export const recordsFinalStatus: CaseDefinition = {
  id: 'records-final-status',
  title: CASE_TITLES['records-final-status'],
  needsProbe: true,
  rule: 'spec "Reservation": BookingStatus with UpdateDate, the time the event occurred; "Limits": redeliveries repeat earlier notifications in later batches, so arrival order is not event order (docs/spec-rules.md#reservation)',
  fix: 'Record per booking (BookingID) the notification with the newest UpdateDate; ignore one that is older than, or identical to, what you have; never let a late Issue overwrite a Void.',
  async run({ ctx, options, probe }) {
    const sent: NotificationRecord[] = [];
    const send = async (emit: Parameters<VerifyContext['send']>[0]) => {
      const records = await ctx.send(emit);
      sent.push(...records);
      return records;
    };
    const checks: Check[] = [];
    const notes: string[] = [];

    // Issue, then Void, then the Void again (a duplicate), then the Issue again (a late redelivery).
    const issued = ctx.issue();
    const a = booking(issued.reservations[0]!);
    await send(issued.emit);
    checks.push({
      what: `booking ${a.bookingId} after its Issue`,
      booking: a,
      expected: 'Issued',
      answer: await probe!.get(a),
    });
    await ctx.tick(MINUTE_MS);
    const voided = ctx.void(a.bookingId);
    await send(voided.emit);
    await send(voided.emit);
    await send(issued.emit);
    checks.push({
      what: `booking ${a.bookingId} after Issue, Void, the Void again and the Issue again`,
      booking: a,
      expected: 'Voided',
    });

    // An Exchange: the old reservation is Exchanged, the new one Issued-Exch. Both share the
    // BookingNumber, so only a {BookingID} probe can tell them apart.
    if (probe!.byBookingId) {
      const b = ctx.issue();
      await send(b.emit);
      await ctx.tick(MINUTE_MS);
      const exchanged = ctx.exchange(b.reservations[0]!.bookingId);
      await send(exchanged.emit);
      const [old, created] = exchanged.reservations;
      checks.push({
        what: `booking ${old!.bookingId} after its Exchange`,
        booking: booking(old!),
        expected: 'Exchanged',
      });
      checks.push({
        what: `booking ${created!.bookingId} created by that Exchange`,
        booking: booking(created!),
        expected: 'Issued-Exch',
      });
    } else {
      notes.push(
        'the Exchange flow is not checked: old and new reservation share a BookingNumber; use {BookingID} in --probe to check it',
      );
    }
    checks.push({
      what: 'a booking never sent',
      booking: { bookingId: UNKNOWN_BOOKING_ID, bookingNumber: UNKNOWN_BOOKING_NUMBER },
      expected: null,
    });

    return judgeRecorded(probe!, checks, sent, options.apiKey, notes);
  },
};

export const sameSecondFilenameCollision: CaseDefinition = {
  id: 'same-second-filename-collision',
  title: CASE_TITLES['same-second-filename-collision'],
  needsProbe: true,
  rule: 'spec "Endpoints 1": Content-Disposition filename=<ZuluDateTime>-<BookingNumber>.json, the time to the second, so an Issue and a Void of one booking in the same second carry the same filename (docs/spec-rules.md#endpoints-1)',
  fix: 'Do not use the filename as the key of a notification: key records by BookingID (and UpdateDate/BookingStatus), and store a second body with a taken filename under another name instead of skipping it as a duplicate.',
  async run({ ctx, options, probe }) {
    const issued = ctx.issue();
    const [issue] = await ctx.send(issued.emit);
    // No tick: the Void happens in the same second, so its UpdateDate and filename are the Issue's.
    const [voided] = await ctx.send(ctx.void(issued.reservations[0]!.bookingId).emit);
    const b = booking(issued.reservations[0]!);
    const answer = await probe!.get(b);
    const evidence = [
      evidenceOf(issue!, options.apiKey),
      evidenceOf(voided!, options.apiKey),
      probeEvidence(answer, 'expected Voided'),
    ];
    if (answer.bookingStatus === 'Voided') {
      const unacked = [issue!, voided!].filter((r) => !acknowledged(r.attempts.at(-1)));
      const note = unacked.length
        ? ` (not acknowledged with 200: ${unacked.map((r) => `the ${r.bookingStatus} → ${shortAnswer(r.attempts.at(-1))}`).join(', ')})`
        : '';
      return passed(
        `recorded Voided although both notifications carried the filename ${voided!.filename}${note}`,
        evidence,
      );
    }
    if (acknowledged(issue!.attempts.at(-1)) && !acknowledged(voided!.attempts.at(-1))) {
      return failed(
        `the Void was answered ${shortAnswer(voided!.attempts.at(-1))} although the Issue with the same filename ${voided!.filename} was acknowledged: a second notification under a taken filename is not a duplicate; the probe says ${recordedText(answer)}`,
        evidence,
      );
    }
    return failed(
      `the probe says ${recordedText(answer)} for booking ${b.bookingId}: the Void (same filename ${voided!.filename} as the Issue, sent after it) was not recorded`,
      evidence,
    );
  },
};
