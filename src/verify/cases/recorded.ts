/** Cases that read back, through --probe, what the receiver recorded. */
import type { NotificationRecord } from '../../delivery/index.js';
import type { VerifyContext } from '../context.js';
import { acknowledged, answerText, evidenceOf, shortAnswer } from '../evidence.js';
import { probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, passed, STEP_MS, TIE_RULE } from './case.js';
import {
  booking,
  type Check,
  drain,
  judgeRecorded,
  lagNote,
  read,
  UNKNOWN_BOOKING_ID,
  UNKNOWN_BOOKING_NUMBER,
} from './probe-checks.js';

export const recordsFinalStatus: CaseDefinition = {
  id: 'records-final-status',
  title: CASE_TITLES['records-final-status'],
  needsProbe: true,
  rule: 'spec "Reservation": BookingStatus with UpdateDate, the time the event occurred; "Limits": redeliveries repeat earlier notifications in later batches, so arrival order is not event order (docs/spec-rules.md#reservation)',
  fix: `Record per booking (BookingID) the notification with the newest UpdateDate, and never let a late Issue overwrite a Void. The tie rule: ${TIE_RULE}.`,
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
    const [first] = await send(issued.emit);
    checks.push({
      what: `booking ${a.bookingId} after its Issue`,
      booking: a,
      expected: 'Issued',
      // A refused Issue is not recorded later: read once, not until the deadline.
      answer: acknowledged(first!.attempts.at(-1))
        ? await read(probe!, a, 'Issued')
        : await probe!.get(a, 'Issued'),
    });
    await ctx.tick(STEP_MS);
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
      await ctx.tick(STEP_MS);
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
    // A queued late Issue could still overwrite the Void after a first right read: read once the
    // receiver's queue is past everything sent.
    await drain(ctx, probe!);
    return judgeRecorded(probe!, checks, sent, options.apiKey, notes);
  },
};

export const sameSecondFilenameCollision: CaseDefinition = {
  id: 'same-second-filename-collision',
  title: CASE_TITLES['same-second-filename-collision'],
  needsProbe: true,
  rule: 'spec "Endpoints 1": Content-Disposition filename=<ZuluDateTime>-<BookingNumber>.json, the time to the second, so an Issue and a Void of one booking in the same second carry the same filename and the same UpdateDate (docs/spec-rules.md#endpoints-1)',
  fix: `Do not use the filename as the key of a notification: key records by BookingID, and store a second body with a taken filename under another name instead of skipping it as a duplicate. The tie rule: ${TIE_RULE}.`,
  async run({ ctx, options, probe }) {
    const issued = ctx.issue();
    const [issue] = await ctx.send(issued.emit);
    // No tick: the Void happens in the same second, so its UpdateDate and filename are the Issue's.
    const [voided] = await ctx.send(ctx.void(issued.reservations[0]!.bookingId).emit);
    const b = booking(issued.reservations[0]!);
    await drain(ctx, probe!);
    const answer = await read(probe!, b, 'Voided');
    const evidence = [
      evidenceOf(issue!, options.apiKey),
      evidenceOf(voided!, options.apiKey),
      probeEvidence(answer, 'expected Voided'),
    ];
    const filename = voided!.filename;
    if (answer.bookingStatus === 'Voided') {
      const unacked = [issue!, voided!].filter((r) => !acknowledged(r.attempts.at(-1)));
      const note = unacked.length
        ? ` (not acknowledged with 200: ${unacked.map((r) => `the ${r.bookingStatus} → ${shortAnswer(r.attempts.at(-1))}`).join(', ')})`
        : '';
      return passed(
        `recorded Voided although both notifications carried the filename ${filename} and the same UpdateDate${note}${lagNote([answer])}`,
        evidence,
      );
    }
    const voidAttempt = voided!.attempts.at(-1);
    if (!acknowledged(voidAttempt)) {
      // Not a question of filenames: the Void itself was refused (or never answered).
      const was = acknowledged(issue!.attempts.at(-1))
        ? 'the Issue before it was acknowledged'
        : `the Issue was answered ${shortAnswer(issue!.attempts.at(-1))} too`;
      return failed(
        `the Void was not acknowledged: ${answerText(voidAttempt)} (${was}); the probe says ${recordedText(answer)}. ` +
          (voidAttempt?.statusCode === 409
            ? `A 409 to a notification under a taken filename (${filename}) takes it for a duplicate: it is not one, its BookingStatus differs`
            : 'Find why the Void was refused (its answer is above); only then can this case tell how the receiver keys notifications'),
        evidence,
      );
    }
    if (answer.status !== 200 || answer.bookingStatus === undefined) {
      return failed(
        `both notifications were acknowledged, but the probe does not show the booking: ${recordedText(answer)} (after ${answer.waitedMs ?? 0} ms); check the --probe URL and that the receiver records what it acknowledges`,
        evidence,
      );
    }
    // Both acknowledged, the Issue's state kept: filename keying, or the tie on UpdateDate taken for
    // a duplicate. An Exchange tells them apart: its two reservations share the filename and the
    // UpdateDate, but not the BookingID.
    const cause = await tellFilenameFromTie(ctx, probe!);
    evidence.push(...cause.evidence);
    return failed(
      `both notifications were answered 200, but the probe says ${recordedText(answer)} for booking ${b.bookingId} (still after ${answer.waitedMs ?? 0} ms): the Void (same filename ${filename} and same UpdateDate as the Issue, sent after it) was not recorded. ${cause.text}`,
      evidence,
    );
  },
};

/** After a lost same-second Void: was it the filename, or the tie on UpdateDate? */
async function tellFilenameFromTie(
  ctx: VerifyContext,
  probe: NonNullable<Parameters<CaseDefinition['run']>[0]['probe']>,
): Promise<{ text: string; evidence: ReturnType<typeof probeEvidence>[] }> {
  const tie = `The tie rule: ${TIE_RULE}`;
  if (!probe.byBookingId)
    return {
      text: `Either the receiver keys notifications by filename, or it takes a second notification with an equal UpdateDate for a duplicate. ${tie}`,
      evidence: [],
    };
  const b = ctx.issue();
  await ctx.send(b.emit);
  await ctx.tick(STEP_MS);
  const exchanged = ctx.exchange(b.reservations[0]!.bookingId);
  await ctx.send(exchanged.emit);
  const old = booking(exchanged.reservations[0]!);
  const created = booking(exchanged.reservations[1]!);
  await drain(ctx, probe);
  // A receiver keying by filename records one of the two, whichever arrived first (the order of two
  // deliveries is not fixed): only both recorded clears the filename.
  const oldAnswer = await read(probe, old, 'Exchanged');
  const answer = await read(probe, created, 'Issued-Exch');
  const evidence = [
    probeEvidence(oldAnswer, 'control: the old reservation of an Exchange'),
    probeEvidence(
      answer,
      'control: the new reservation of an Exchange, same filename as the old one, another BookingID',
    ),
  ];
  if (oldAnswer.bookingStatus === 'Exchanged' && answer.bookingStatus === 'Issued-Exch')
    return {
      text: `Not the filename: an Exchange's two reservations (same filename, other BookingIDs) were both recorded. The receiver takes the Void for a duplicate because its UpdateDate equals the Issue's. ${tie}`,
      evidence,
    };
  if (answer.bookingStatus === 'Issued-Exch')
    return {
      text: `The receiver keys notifications by filename: of an Exchange's two reservations (same filename, other BookingIDs) only the new one was recorded; the old one reads ${recordedText(oldAnswer)}, not Exchanged.`,
      evidence,
    };
  return {
    text: `The receiver keys notifications by filename: the new reservation of an Exchange (same filename as the old one, another BookingID) was not recorded either (${recordedText(answer)}).`,
    evidence,
  };
}
