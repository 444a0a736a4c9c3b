/**
 * records-concurrent-issue-and-void: an Issue and its Void, both pending after an outage, redelivered
 * by one batch at the same time. A receiver that reads the booking, decides, then writes (without a
 * lock or a conditional update) lets the Issue's write land last.
 */
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, passed, STEP_MS, TIE_RULE } from './case.js';
import { booking, drain, lagNote, read } from './probe-checks.js';

export const recordsConcurrentIssueAndVoid: CaseDefinition = {
  id: 'records-concurrent-issue-and-void',
  title: CASE_TITLES['records-concurrent-issue-and-void'],
  needsProbe: true,
  rule: 'spec "Limits": a batch re-attempts every pending notification at minute 55, so an Issue and its Void that both failed arrive together, on two connections at once; "Reservation": UpdateDate orders them (docs/spec-rules.md#limits)',
  fix: `Serialize the updates of one booking: a per-BookingID lock, a transaction with SELECT … FOR UPDATE, or a conditional write (UPDATE … WHERE BookingID = ? AND UpdateDate < ?), so the newer state wins whatever finishes last. The tie rule: ${TIE_RULE}.`,
  async run({ ctx, options, probe }) {
    const issued = ctx.issue();
    await ctx.tick(STEP_MS);
    const voidEmit = ctx.void(issued.reservations[0]!.bookingId).emit;
    // The outage: both first attempts fail, so both are pending when the batch comes.
    const pending = await ctx.sendDuringOutage([...issued.emit, ...voidEmit]);
    const at = await ctx.nextBatch();
    const records = pending.map((r) => ctx.record(r.id));
    const b = booking(issued.reservations[0]!);
    await drain(ctx, probe!);
    const answer = await read(probe!, b, 'Voided');
    const evidence = [
      ...records.map((r) => evidenceOf(r, options.apiKey)),
      probeEvidence(answer, 'expected Voided'),
    ];
    const unacked = records.filter((r) => !acknowledged(r.attempts.at(-1)));
    if (answer.bookingStatus === 'Voided') {
      const note = unacked.length
        ? ` (not acknowledged with 200: ${unacked.map((r) => `the ${r.bookingStatus} → ${shortAnswer(r.attempts.at(-1))}`).join(', ')})`
        : '';
      return passed(
        `recorded Voided after the batch at ${at} sent the Issue and its Void at the same time${note}${lagNote([answer])}`,
        evidence,
      );
    }
    if (unacked.length)
      return failed(
        `the batch at ${at} sent the Issue and its Void at the same time; ${unacked.map((r) => `the ${r.bookingStatus} was answered ${shortAnswer(r.attempts.at(-1))}`).join(', ')}, and the probe says ${recordedText(answer)}`,
        evidence,
      );
    return failed(
      `the batch at ${at} sent the Issue and its Void (newer UpdateDate) at the same time; both were answered 200, but the probe says ${recordedText(answer)} for booking ${b.bookingId} (still after ${answer.waitedMs ?? 0} ms): the two updates raced, and the older one was written last (a read-modify-write without a lock)`,
      evidence,
    );
  },
};
