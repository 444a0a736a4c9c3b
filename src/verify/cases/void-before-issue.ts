/**
 * handles-void-before-issue. The kit simulates the Issue's failed attempts by holding the Issue
 * back: the Void goes first, is redelivered in up to 4 minute-55 batches while the Issue stays
 * undelivered, and only then does the Issue arrive (docs/verify.md, decision 0027; decision 0070 for the clock).
 */
import { MAX_REDELIVERIES } from '../../delivery/index.js';
import { acknowledged, evidenceOf, OVER_CAP_WARNING, overCap, shortAnswer } from '../evidence.js';
import { probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES, type Evidence } from '../types.js';
import { type CaseDefinition, failed, type Outcome, passed, STEP_MS, warned } from './case.js';
import { type Booking, booking, drain, read } from './probe-checks.js';

/** Steps between the Issue and its Void (the Void is the newer event). */
const VOID_AFTER_STEPS = 5;

export const handlesVoidBeforeIssue: CaseDefinition = {
  id: 'handles-void-before-issue',
  title: CASE_TITLES['handles-void-before-issue'],
  rule: 'spec "Events": delivery is asynchronous; "Limits": a failed delivery is retried only in the hourly batches, up to 4 times, and may be dropped, so a Void can arrive before its Issue, or without it (docs/spec-rules.md#events)',
  fix: 'Store a Void for a booking you do not know yet (e.g. as a placeholder keyed by BookingID) and answer 200 at once; when the Issue arrives later, answer 200 and keep the newer state (compare UpdateDate: the Void stays). A Void whose Issue never comes stays recorded as Voided.',
  async run(input): Promise<Outcome> {
    const { outcome, flow } = await voidThenIssue(input);
    if (outcome.status === 'failed' || !input.probe) return outcome;
    // With --probe: what the receiver kept, for this booking and for a Void whose Issue never comes.
    return recordedAfterVoidBeforeIssue(input, outcome, flow);
  },
};

type Input = Parameters<typeof handlesVoidBeforeIssue.run>[0];

async function recordedAfterVoidBeforeIssue(
  { ctx, options, probe }: Input,
  first: Outcome,
  flow: Booking,
): Promise<Outcome> {
  // A Void whose Issue never comes (the Issue was dropped after its redeliveries).
  const never = ctx.issue();
  await ctx.tick(STEP_MS);
  const [sentOrphan] = await ctx.send(ctx.void(never.reservations[0]!.bookingId).emit);
  // As the provider would: redelivered while not acknowledged (a receiver may defer it once).
  for (
    let batch = 0;
    batch < MAX_REDELIVERIES && !acknowledged(ctx.record(sentOrphan!.id).attempts.at(-1));
    batch++
  )
    await ctx.nextBatch();
  const orphan = ctx.record(sentOrphan!.id);
  await drain(ctx, probe!);
  const kept = await read(probe!, flow, 'Voided');
  const orphanAnswer = await read(probe!, booking(never.reservations[0]!), 'Voided');
  const evidence: Evidence[] = [
    ...(first.evidence ?? []),
    probeEvidence(kept, `booking ${flow.bookingId} after its Void and the late Issue: expected Voided`),
    evidenceOf(orphan, options.apiKey),
    probeEvidence(
      orphanAnswer,
      `booking ${never.reservations[0]!.bookingId}, a Void whose Issue never came: expected Voided`,
    ),
  ];
  const wrong: string[] = [];
  const orphanAcked = acknowledged(orphan.attempts.at(-1));
  const orphanDropped = orphanAcked && orphanAnswer.status === 404;
  if (kept.bookingStatus !== 'Voided')
    wrong.push(
      `after the Void and then its late Issue (older UpdateDate) the probe says ${recordedText(kept)} for booking ${flow.bookingId}: ` +
        (orphanDropped
          ? 'a Void of a booking the receiver did not know yet was answered 200 and dropped (the Void whose Issue never came reads unknown too), so the late Issue made it Issued'
          : kept.bookingStatus === 'Issued'
            ? 'the late Issue overwrote the Void (a placeholder replaced by the Issue, instead of keeping the newer UpdateDate)'
            : 'the Void was acknowledged but not recorded'),
    );
  if (!orphanAcked)
    wrong.push(
      `a Void whose Issue never came was never acknowledged: all ${orphan.attempts.length} attempts went unacknowledged, the last with ${shortAnswer(orphan.attempts.at(-1))}`,
    );
  else if (orphanAnswer.bookingStatus !== 'Voided')
    wrong.push(
      `a Void whose Issue never came was answered 200, but the probe says ${recordedText(orphanAnswer)} for booking ${never.reservations[0]!.bookingId}: it was dropped, so the booking's void is lost`,
    );
  if (wrong.length) return failed(`${wrong.join('; ')}`, evidence);
  return {
    ...first,
    reason: `${first.reason}; the probe says Voided for it, and for a Void whose Issue never came`,
    evidence,
  };
}

/** The Void first, redelivered while its Issue is held back; then the late Issue. */
function voidThenIssue({ ctx, options }: Input): Promise<{ outcome: Outcome; flow: Booking }> {
  return voidThenIssueFlow(ctx, options.apiKey);
}

async function voidThenIssueFlow(
  ctx: Input['ctx'],
  apiKey: string,
): Promise<{ outcome: Outcome; flow: Booking }> {
  {
    const issued = ctx.issue(); // its attempts "fail": held back until the Void's fate is known
    const flow = booking(issued.reservations[0]!);
    const done = (outcome: Outcome) => ({ outcome, flow });
    await ctx.tick(VOID_AFTER_STEPS * STEP_MS);
    const [first] = await ctx.send(ctx.void(issued.reservations[0]!.bookingId).emit);
    for (
      let batch = 0;
      batch < MAX_REDELIVERIES && !acknowledged(ctx.record(first!.id).attempts.at(-1));
      batch++
    )
      await ctx.nextBatch();
    const voided = ctx.record(first!.id);
    const [lateIssue] = await ctx.send(issued.emit);
    const evidence = [
      ...voided.attempts.map((a) => evidenceOf(voided, apiKey, a)),
      evidenceOf(lateIssue!, apiKey),
    ];
    const firstAnswer = shortAnswer(voided.attempts[0]);
    const issueAcked = acknowledged(lateIssue!.attempts[0]);
    const issueNote = issueAcked
      ? ''
      : `; the Issue that arrived after it was answered ${shortAnswer(lateIssue!.attempts[0])}, so it would be redelivered 4 times and dropped`;

    if (!acknowledged(voided.attempts.at(-1))) {
      return done(
        failed(
          `the Void was never acknowledged: all ${voided.attempts.length} attempts (first and ${voided.attempts.length - 1} redeliveries) went unacknowledged, the first with ${firstAnswer}; the provider then drops it and the booking stays issued in your records${issueNote}`,
          evidence,
        ),
      );
    }
    if (!issueAcked)
      return done(failed(`the Void was acknowledged${issueNote.replace(';', ', but')}`, evidence));
    const capped = [voided.attempts.at(-1), lateIssue!.attempts[0]].some(overCap);
    if (voided.attempts.length === 1)
      return done(
        capped
          ? warned(
              `acknowledged the Void at once, and the Issue that arrived after it; ${OVER_CAP_WARNING}`,
              evidence,
            )
          : passed('acknowledged the Void at once, and the Issue that arrived after it', evidence),
      );
    const saving = voided.attempts.at(-1)!;
    return done(
      warned(
        `only redelivery ${voided.attempts.length - 1} (batch at ${saving.batchAt}) saved the Void: it was first answered ${firstAnswer}; ` +
          'the Issue can arrive later than your last redelivery, or never, so acknowledge a Void at once',
        evidence,
      ),
    );
  }
}
