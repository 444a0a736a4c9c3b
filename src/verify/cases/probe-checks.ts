/**
 * What the probe cases share: reading a booking until it is right (an asynchronous receiver lags),
 * waiting for the receiver's queue to reach a point (a sentinel booking), and judging a list of
 * expected states with the time each took to read right.
 */
import type { NotificationRecord } from '../../delivery/index.js';
import type { VerifyContext } from '../context.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { type Probe, type ProbeAnswer, probeEvidence, type QuietWatch, recordedText } from '../probe.js';
import type { Expectation } from '../trace-shape.js';
import type { Evidence } from '../types.js';
import { failed, type Outcome, passed } from './case.js';

/** A BookingID the generator never draws (it draws 1000000–9999999): unknown to every receiver. */
export const UNKNOWN_BOOKING_ID = 1;
/** A BookingNumber the generator never draws (its alphabet has no 0, 1, O or I). */
export const UNKNOWN_BOOKING_NUMBER = 'VERIFY0';

export interface Booking {
  bookingId: number;
  bookingNumber: string;
}

export const booking = (r: Booking): Booking => ({ bookingId: r.bookingId, bookingNumber: r.bookingNumber });

export interface Check {
  what: string;
  booking: Booking;
  /** Expected BookingStatus, or null for "unknown" (404). */
  expected: string | null;
  /** The probe's answer when it was read mid-flow (else it is read when judged). */
  answer?: ProbeAnswer;
}

/** Whether an answer is what a check expects. */
export function matches(answer: ProbeAnswer, expected: string | null): boolean {
  return expected === null ? answer.status === 404 : answer.bookingStatus === expected;
}

/** Reads a booking until it says `expected` (or the deadline); `null` (unknown) is read once. */
export function read(probe: Probe, b: Booking, expected: string | null): Promise<ProbeAnswer> {
  if (expected === null) return probe.get(b, 'unknown');
  return probe.until(b, (a) => matches(a, expected), expected as Expectation);
}

/**
 * Waits until the receiver has worked through everything sent so far: sends the Issue of a new
 * booking (the sentinel) and reads it until it is Issued. A receiver that queues its work takes
 * notifications in order, so what came before the sentinel is recorded once the sentinel is: a
 * check read then sees the final state, not a state a queued notification is about to overwrite.
 */
export async function drain(ctx: VerifyContext, probe: Probe): Promise<ProbeAnswer> {
  const earlier = unrecordedBookings(ctx);
  const sentinel = ctx.issue();
  const [sent] = await ctx.send(sentinel.emit);
  const b = booking(sentinel.reservations[0]!);
  // A refused sentinel is never recorded: waiting for it would only cost the deadline.
  if (!acknowledged(sent!.attempts.at(-1))) {
    probe.recording = false;
    return probe.get(b);
  }
  const quietMs = probe.quietMs();
  const watch = quietMs === undefined ? undefined : { quietMs, ...progressOf(probe, earlier) };
  const answer = await probe.until(b, (a) => a.bookingStatus === 'Issued', 'Issued', watch);
  probe.recording = answer.bookingStatus === 'Issued';
  if (probe.recording) {
    probe.learnLag(answer.waitedMs ?? 0, earlier.length);
    probe.settled();
  }
  return answer;
}

/**
 * Bookings of the case's acknowledged notifications with the receiver's key, in the order the
 * receiver answered them (a queue that answers once it enqueued holds them in that order; a burst
 * sent at once is not answered in the order it was sent).
 */
function unrecordedBookings(ctx: VerifyContext): Booking[] {
  const key = `Bearer ${ctx.options.apiKey}`;
  const answeredAt = (r: NotificationRecord) => {
    const a = r.attempts.at(-1)!;
    return Date.parse(a.startedAtWall) + a.durationMs;
  };
  const acked = ctx
    .caseRecords()
    .filter((r) => r.authorization === key && acknowledged(r.attempts.at(-1)))
    .sort((a, b) => answeredAt(a) - answeredAt(b));
  const seen = new Set<number>();
  const out: Booking[] = [];
  for (const r of acked)
    if (!seen.has(r.bookingId)) {
      seen.add(r.bookingId);
      out.push(booking(r));
    }
  return out;
}

/** Bookings a progress watch reads in one round (the oldest first: a queue records them first). */
const WATCHED = 4;
/**
 * Rounds in which the watch saw where the receiver's queue stands (some of the bookings it read
 * recorded, some not) before their pace is trusted: fewer could be a batch flushed at once.
 */
const PACE_ROUNDS = 3;

/**
 * Whether the receiver recorded something of the case since the last call: reads the oldest bookings
 * not yet seen recorded, and one further on in turn (found recorded, the watch moves past the older
 * ones). A queue working through a backlog records them one after the other (progress:
 * keep waiting for the sentinel); a stalled worker records none. `behind` (decision 0259): a queue
 * seen recording one booking at a time, at a pace that even doubled would not reach the sentinel
 * before the deadline, is not waited on further: the deadline would only show more of the same.
 */
function progressOf(probe: Probe, bookings: Booking[]): Pick<QuietWatch, 'progress' | 'behind'> {
  const open = [...bookings];
  let recorded = 0;
  let paced = 0;
  let turn = 0;
  const isRecorded = (a: ProbeAnswer) => a.status === 200 && a.bookingStatus !== undefined;
  return {
    progress: async () => {
      const batch = open.slice(0, WATCHED);
      if (batch.length === 0) return false;
      // As many further on, spread over the rest and shifted each round: a queue that records out of
      // the order read here shows it.
      const rest = open.length - batch.length;
      const further = [
        ...new Set(
          Array.from(
            { length: Math.min(WATCHED, rest) },
            (_, k) => open[batch.length + ((Math.floor((k * rest) / WATCHED) + turn) % rest)]!,
          ),
        ),
      ];
      turn++;
      const answers = await Promise.all([...batch, ...further].map((b) => probe.peek(b)));
      const done = batch.filter((_, i) => isRecorded(answers[i]!));
      for (const b of done) open.splice(open.indexOf(b), 1);
      recorded += done.length;
      // All read recorded: the queue may be further on than this round can see (a batch flushed).
      if (done.length > 0 && done.length < batch.length) paced++;
      const ahead = further.filter((_, i) => isRecorded(answers[batch.length + i]!));
      if (ahead.length > 0) {
        // Recorded before bookings answered ahead of them: those were dropped, or the answers were
        // read out of the queue's order (a loaded machine reads them late). The watch moves on to the
        // first found; the ones passed are read again last (decision 0264).
        const at = Math.min(...ahead.map((b) => open.indexOf(b)));
        open.push(...open.splice(0, at));
        for (const b of ahead) open.splice(open.indexOf(b), 1);
        recorded += ahead.length;
        return true;
      }
      return done.length > 0;
    },
    behind: (waitedMs, leftMs, deadlineMs) => {
      if (paced < PACE_ROUNDS || open.length === 0) return undefined;
      // The still open, and the sentinel behind them, at twice the pace seen.
      const needMs = ((open.length + 1) * waitedMs) / (2 * recorded);
      if (needMs <= leftMs) return undefined;
      return `the kit stopped waiting after ${waitedMs} ms: the receiver recorded ${recorded} of this case's notifications in that time, and at twice that pace the ${open.length} still open would not all be recorded within the ${deadlineMs} ms probe deadline`;
    },
  };
}

/** "read right after 840 ms (asked 7 times)" when the receiver lagged, else ''. */
export function lagNote(answers: readonly ProbeAnswer[]): string {
  const slowest = answers.reduce<ProbeAnswer | undefined>(
    (max, a) => ((a.asks ?? 1) > 1 && (a.waitedMs ?? 0) > (max?.waitedMs ?? -1) ? a : max),
    undefined,
  );
  if (!slowest) return '';
  return `; your receiver records asynchronously: the slowest check read right after ${slowest.waitedMs} ms (${slowest.asks} asks; --probe-deadline-ms allows up to the deadline)`;
}

/** Probes every check; the verdict names each mismatch and how long the right ones took. */
export async function judgeRecorded(
  probe: Probe,
  checks: Check[],
  sent: NotificationRecord[],
  apiKey: string,
  notes: string[],
): Promise<Outcome> {
  const evidence: Evidence[] = [];
  const wrong: string[] = [];
  const answers: ProbeAnswer[] = [];
  for (const check of checks) {
    const answer = check.answer ?? (await read(probe, check.booking, check.expected));
    answers.push(answer);
    evidence.push(probeEvidence(answer, `${check.what}: expected ${check.expected ?? '404 (unknown)'}`));
    if (!matches(answer, check.expected))
      wrong.push(
        `${check.what}: expected ${check.expected ?? '404 (unknown)'}, the probe says ${recordedText(answer)}${check.expected !== null && (answer.asks ?? 1) > 1 ? ` (still after ${answer.waitedMs} ms)` : ''}`,
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
    `the probe reported the last status of every flow (${checks.length} checks)${ackNote}${lagNote(answers)}${noteText}`,
    evidence,
  );
}
