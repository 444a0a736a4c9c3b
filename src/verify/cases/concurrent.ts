/**
 * records-concurrent-issue-and-void: an Issue and its Void, both pending after an outage, redelivered
 * by one batch at the same time. A receiver that reads the booking, decides, then writes (without a
 * lock or a conditional update) lets the Issue's write land last.
 *
 * Which of two simultaneous requests arrives first is scheduling luck, and a verdict must not depend
 * on it: the same pair is also sent deliberately in both orders, one after the other (Issue then Void,
 * Void then Issue), and every notification not acknowledged is redelivered by the following batches,
 * as the provider does. So a receiver that defers a Void of a booking it does not know (503 once, 200
 * on the redelivery) is warned in every run, whatever order the simultaneous pair arrived in.
 */
import { MAX_REDELIVERIES, type NotificationRecord } from '../../delivery/index.js';
import type { VerifyContext } from '../context.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES } from '../types.js';
import {
  type CaseDefinition,
  failed,
  passed,
  redeliverUnacknowledged,
  STEP_MS,
  TIE_RULE,
  warned,
} from './case.js';
import { type Booking, booking, drain, lagNote, read } from './probe-checks.js';

interface Flow {
  what: string;
  booking: Booking;
  records: NotificationRecord[];
}

export const recordsConcurrentIssueAndVoid: CaseDefinition = {
  id: 'records-concurrent-issue-and-void',
  title: CASE_TITLES['records-concurrent-issue-and-void'],
  needsProbe: true,
  rule: 'spec "Limits": a batch re-attempts every pending notification at minute 55, so an Issue and its Void that both failed arrive together, on two connections at once; "Reservation": UpdateDate orders them (docs/spec-rules.md#limits)',
  fix: `Serialize the updates of one booking: a per-BookingID lock, a transaction with SELECT … FOR UPDATE, or a conditional write (UPDATE … WHERE BookingID = ? AND UpdateDate < ?), so the newer state wins whatever finishes last. The tie rule: ${TIE_RULE}.`,
  async run({ ctx, options, probe }) {
    const [issueFirst, voidFirst] = await inOrder(ctx);
    const issued = ctx.issue();
    await ctx.tick(STEP_MS);
    const voidEmit = ctx.void(issued.reservations[0]!.bookingId).emit;
    // The outage: both first attempts fail, so both are pending when the batch comes.
    const pending = await ctx.sendDuringOutage([...issued.emit, ...voidEmit]);
    const at = await ctx.nextBatch();
    const together: Flow = {
      what: `the Issue and its Void at the same time (batch at ${at})`,
      booking: booking(issued.reservations[0]!),
      records: pending,
    };
    const flows = [issueFirst, voidFirst, together];
    const all = () => flows.flatMap((f) => f.records.map((r) => ctx.record(r.id)));
    await redeliverUnacknowledged(
      ctx,
      all().map((r) => r.id),
    );
    for (const f of flows) f.records = f.records.map((r) => ctx.record(r.id));
    await drain(ctx, probe!);
    const answers = await Promise.all(flows.map((f) => read(probe!, f.booking, 'Voided')));
    const evidence = flows.flatMap((f, i) => [
      ...f.records.flatMap((r) => r.attempts.map((a) => evidenceOf(r, options.apiKey, a))),
      probeEvidence(answers[i]!, `booking ${f.booking.bookingId} after ${f.what}: expected Voided`),
    ]);
    const never = all().filter((r) => !acknowledged(r.attempts.at(-1)));
    const wrong: string[] = [];
    for (const [i, f] of flows.entries()) {
      const answer = answers[i]!;
      if (answer.bookingStatus === 'Voided') continue;
      const raced =
        f === together && f.records.every((r) => real(r).length === 1 && acknowledged(real(r)[0]));
      wrong.push(
        raced
          ? `${f.what}: both were answered 200, but the probe says ${recordedText(answer)} for booking ${f.booking.bookingId} (still after ${answer.waitedMs ?? 0} ms): the two updates raced, and the older one was written last (a read-modify-write without a lock)`
          : `${f.what}: the probe says ${recordedText(answer)} for booking ${f.booking.bookingId} (still after ${answer.waitedMs ?? 0} ms)`,
      );
    }
    // Acknowledging is judged by the acknowledging cases; here it is only named.
    const note = never.length
      ? ` (never acknowledged with 200 within ${MAX_REDELIVERIES} redeliveries: ${never.map((r) => `the ${r.bookingStatus} of booking ${r.bookingId} → ${shortAnswer(r.attempts.at(-1))}`).join(', ')})`
      : '';
    if (wrong.length) return failed(`${wrong.join('; ')}${note}`, evidence);
    const saved = all().filter((r) => real(r).length > 1 && acknowledged(r.attempts.at(-1)));
    if (saved.length)
      return warned(
        `recorded Voided in every order, but only a redelivery saved ${saved.map((r) => `the ${r.bookingStatus} of booking ${r.bookingId} (first answered ${shortAnswer(real(r)[0])})`).join(', ')}: the provider redelivers only hourly, 4 times, so acknowledge each at once, whatever arrived first`,
        evidence,
      );
    return passed(
      `recorded Voided whatever the order: Issue then Void, Void then Issue, and both at the same time in the batch at ${at}${note}${lagNote(answers)}`,
      evidence,
    );
  },
};

/** The attempts that reached for the receiver (the kit's simulated outage sends nothing). */
const real = (r: NotificationRecord) => r.attempts.filter((a) => a.outcome !== 'simulated_outage');

/**
 * Two bookings' Issue and Void sent one after the other, the first booking's Issue first, the second's
 * Void first (each answer awaited). The bookings are independent: each step goes to both at once
 * (decision 0257).
 */
async function inOrder(ctx: VerifyContext): Promise<[Flow, Flow]> {
  const issued = [ctx.issue(), ctx.issue()] as const;
  await ctx.tick(STEP_MS);
  const voided = issued.map((i) => ctx.void(i.reservations[0]!.bookingId));
  const first = await ctx.send([...issued[0].emit, ...voided[1]!.emit]);
  const second = await ctx.send([...voided[0]!.emit, ...issued[1].emit]);
  const flow = (i: 0 | 1, what: string, records: NotificationRecord[]): Flow => ({
    what,
    booking: booking(issued[i].reservations[0]!),
    records,
  });
  return [
    flow(0, 'the Issue, then its Void, one after the other', [first[0]!, second[0]!]),
    flow(1, 'the Void, then its Issue, one after the other', [first[1]!, second[1]!]),
  ];
}
