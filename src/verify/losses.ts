/**
 * Losses after a 200 (docs/verify.md "Losses after a 200"): with --probe, every notification the
 * receiver acknowledged with its key must show up as recorded. A full queue that drops, an inbox keyed
 * by arrival millisecond, a body read only in part: each answers 200 and loses the notification for
 * good, since the provider never sends an acknowledged notification again. The runner asks this after
 * every case that sent notifications, so no case passes over a loss.
 *
 * It also tells a stalled worker from a case's own finding: when nothing acknowledged since some point
 * of the run is recorded, the reason is "recording stopped at notification N", not the case's symptom
 * (a "dropped Void", a "race").
 */
import type { NotificationRecord } from '../delivery/index.js';
import { booking, drain } from './cases/probe-checks.js';
import type { VerifyContext } from './context.js';
import { acknowledged } from './evidence.js';
import { type Probe, type ProbeAnswer, probeEvidence, recordedText } from './probe.js';
import type { Evidence } from './types.js';

const SHOWN = 8;

/** A finding of the loss check: the reason, its evidence and the fix that fits it. */
export interface Loss {
  reason: string;
  evidence: Evidence[];
  fix: string;
}

export const LOSS_FIX =
  'Store each notification (or put it on a durable queue that keeps every item) before answering 200, and answer 200 only once that write succeeded: a queue that is full must make the receiver answer 503 (the provider then redelivers), never 200 and drop; key stored notifications by BookingID (or the filename), never by arrival time; read the whole request body (to its Content-Length) before decoding it.';

export const STALL_FIX =
  'Find out why the receiver stopped recording after this notification while it kept answering 200: a worker that died or hangs, a queue consumer that stopped, a full disk or a lost database connection. Answer 200 only once the notification is stored; while the store is unavailable answer 503 so the provider redelivers.';

const recorded = (a: ProbeAnswer) => a.status === 200 && a.bookingStatus !== undefined;

/** The first acknowledged attempt's start, to order notifications as the receiver got them. */
function ackedAt(r: NotificationRecord): string {
  return r.attempts.find((a) => acknowledged(a))?.startedAtWall ?? '';
}

/**
 * Checks that every booking of an acknowledged notification of the running case reads as recorded.
 * Answers undefined when none was lost.
 */
export async function findLosses(
  ctx: VerifyContext,
  probe: Probe,
  apiKey: string,
): Promise<Loss | undefined> {
  const mine = (r: NotificationRecord) => r.authorization === `Bearer ${apiKey}`;
  if (!ctx.caseRecords().some(mine)) return undefined;
  // Bookings the case's own checks already read as recorded are not read (nor waited for) again;
  // when that is every acknowledged one, there is nothing to drain for.
  const seen = new Set(
    probe
      .readings()
      .filter((p) => p.status === 200 && p.bookingStatus !== undefined)
      .map((p) => `${p.bookingId}/${p.bookingNumber}`),
  );
  const key = (r: NotificationRecord) => `${r.bookingId}/${r.bookingNumber}`;
  const unseen = ctx
    .caseRecords()
    .filter((r) => mine(r) && acknowledged(r.attempts.at(-1)) && !seen.has(key(r)));
  // A booking read as recorded is final for this check: each is asked once, and only when one is not
  // recorded yet does the check wait for the receiver's queue (a sentinel) and ask again.
  const asked = [...new Map(unseen.map((r) => [key(r), r])).values()];
  const once = await probe.untilAll(asked.map(booking), recorded, 'recorded', true);
  for (const [i, r] of asked.entries()) if (recorded(once[i]!)) seen.add(key(r));
  // Once the receiver's lag is known, the ones not recorded yet are asked again for that long before
  // a sentinel is sent: a queue that lags records them without one more notification to work through
  // (decision 0259).
  const notYet = asked.filter((r) => !seen.has(key(r)));
  const lagWait = probe.lagWaitMs(notYet.length);
  if (lagWait !== undefined && notYet.length > 0 && probe.recording) {
    const again = await probe.untilAll(notYet.map(booking), recorded, 'recorded', false, lagWait);
    for (const [i, r] of notYet.entries()) if (recorded(again[i]!)) seen.add(key(r));
  }
  if (unseen.every((r) => seen.has(key(r)))) {
    for (const r of ctx.caseRecords()) if (mine(r) && acknowledged(r.attempts.at(-1))) ctx.sawRecorded(r);
    return undefined;
  }
  await drain(ctx, probe);
  const acked = ctx
    .caseRecords()
    .filter((r) => mine(r) && acknowledged(r.attempts.at(-1)))
    .sort((a, b) => ackedAt(a).localeCompare(ackedAt(b)));
  const byBooking = new Map<string, NotificationRecord>();
  // Each booking by its first acknowledged notification, in the order they were acknowledged.
  for (const r of acked) {
    const key = `${r.bookingId}/${r.bookingNumber}`;
    if (!byBooking.has(key)) byBooking.set(key, r);
  }
  const records = [...byBooking.values()];
  if (records.length === 0) return undefined;
  const open = records.filter((r) => !seen.has(key(r)));
  const read = await probe.untilAll(
    open.map((r) => booking(r)),
    recorded,
    'recorded',
  );
  const seenAnswer: ProbeAnswer = {
    url: '',
    status: 200,
    bookingStatus: 'recorded',
    text: 'read as recorded by the case',
  };
  const answers = records.map((r) => (seen.has(key(r)) ? seenAnswer : read[open.indexOf(r)]!));
  // A probe that did not answer at all (the receiver is down) shows no loss: the runner names a death.
  const lost = records.filter((_, i) => !recorded(answers[i]!) && answers[i]!.status !== undefined);
  for (const [i, r] of records.entries()) if (recorded(answers[i]!)) ctx.sawRecorded(r);
  if (lost.length === 0) return undefined;
  const answerOf = (r: NotificationRecord) => answers[records.indexOf(r)]!;
  const evidence = lost
    .slice(0, SHOWN)
    .map((r) =>
      probeEvidence(
        answerOf(r),
        `booking ${r.bookingId}, whose ${r.bookingStatus} was answered 200: expected it recorded`,
      ),
    );
  // A receiver seen recording, too slowly to wait for (decision 0259), has not stalled.
  const stall = probe.gaveUp ? undefined : stallOf(ctx, records, lost);
  if (stall) return { reason: stall, evidence, fix: STALL_FIX };
  const first = answerOf(lost[0]!);
  const ids = lost
    .slice(0, SHOWN)
    .map((r) => r.bookingId)
    .join(', ');
  return {
    reason:
      `${lost.length} of ${records.length} notifications answered 200 were not recorded: the probe says ${recordedText(first)} for booking${lost.length === 1 ? '' : 's'} ${ids}${lost.length > SHOWN ? ', …' : ''} (${probe.gaveUp ?? `still after ${first.waitedMs ?? 0} ms, once the receiver's queue was past them`}). ` +
      (probe.gaveUp
        ? 'An acknowledged notification is never sent again, so each of these the receiver drops is lost for good'
        : 'An acknowledged notification is never sent again, so each of these is lost for good'),
    evidence,
    fix: LOSS_FIX,
  };
}

/**
 * "Recording stopped at notification N": the lost ones are everything acknowledged after some point
 * (nothing after them is recorded, the sentinel included). Answers the reason, or undefined when the
 * losses are scattered (a full queue, keys that collide).
 */
function stallOf(
  ctx: VerifyContext,
  records: readonly NotificationRecord[],
  lost: readonly NotificationRecord[],
): string | undefined {
  const firstLost = records.indexOf(lost[0]!);
  const suffix = lost.length === records.length - firstLost;
  if (!suffix || lost.length < 2) return undefined;
  const last = ctx.lastRecorded;
  // Nothing after the last recorded one is: recording stopped right after it (maybe in an earlier case).
  const n = last ? last.ordinal + 1 : 1;
  const before = last
    ? `the last one it recorded was notification ${last.ordinal} (the ${last.record.bookingStatus} of booking ${last.record.bookingId}, in ${last.caseId})`
    : 'the probe has shown no notification of this run recorded (if this receiver records, check that the --probe URL reads what it stores)';
  return `recording stopped at notification ${n} of the run: the receiver answered 200 to it and to every notification since, but the probe shows none of them recorded (${lost.length} bookings in this case, from the ${lost[0]!.bookingStatus} of booking ${lost[0]!.bookingId}); ${before}. A stalled worker or queue, not a fault of this case's flow`;
}
