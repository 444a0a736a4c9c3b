/**
 * records-newest-update-date: UpdateDate ordering where a wrong comparison shows. An Issue and its
 * Void whose UpdateDates straddle an hour (09:59:59 → 10:00:01), a day (the 9th → the 10th) and a
 * month boundary (30 September → 1 October): compared as en-US text ("9/30/2026, 11:59:59 PM" sorts
 * after "10/1/2026, 12:00:01 AM") the Issue looks newer. And a Void that arrives before its Issue with
 * the same UpdateDate: a receiver whose tie rule lets the later arrival win (`>=`) ends Issued.
 */
import type { NotificationRecord } from '../../delivery/index.js';
import { deriveSeed, generateNotification } from '../../generate/index.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES, type Evidence } from '../types.js';
import { type CaseDefinition, failed, passed, redeliverUnacknowledged, TIE_RULE, warned } from './case.js';
import { type Booking, drain, lagNote } from './probe-checks.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Pair {
  what: string;
  issueAt: Date;
  voidAt: Date;
  /** The Void is sent first (the tie). */
  voidFirst: boolean;
  /** Why a wrong state points where it points. */
  cause: string;
}

/** The boundaries, each the latest one at least a day before `now` (UTC). */
export function boundaryPairs(now: Date): Pair[] {
  const day = new Date(now.getTime() - DAY_MS);
  // The latest 09:59:59 a day or more back.
  const hour = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9, 59, 59));
  // The latest 9th 23:59:59 a day or more back.
  let ninth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), 9, 23, 59, 59));
  if (ninth > day) ninth = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() - 1, 9, 23, 59, 59));
  // The latest 30 September 23:59:59 a day or more back.
  let september = new Date(Date.UTC(day.getUTCFullYear(), 8, 30, 23, 59, 59));
  if (september > day) september = new Date(Date.UTC(day.getUTCFullYear() - 1, 8, 30, 23, 59, 59));
  const text =
    'compare UpdateDate as instants (parse the Zulu time), not as formatted text: as en-US text the earlier time sorts after the later one here';
  const across = (what: string, at: Date): Pair => ({
    what: `an Issue and its Void across ${what}`,
    issueAt: at,
    voidAt: new Date(at.getTime() + 2_000),
    voidFirst: false,
    cause: text,
  });
  const tieAt = new Date(Math.floor((now.getTime() - HOUR_MS) / 1000) * 1000);
  return [
    across('an hour boundary', hour),
    across('a day boundary', ninth),
    across('a month boundary', september),
    {
      what: 'a Void that arrived before its Issue, both with the same UpdateDate',
      issueAt: tieAt,
      voidAt: tieAt,
      voidFirst: true,
      cause: `the later arrival won the tie (an UpdateDate compared with >=): ${TIE_RULE}`,
    },
  ];
}

const iso = (d: Date) => d.toISOString().replace('.000Z', 'Z');

export const recordsNewestUpdateDate: CaseDefinition = {
  id: 'records-newest-update-date',
  title: CASE_TITLES['records-newest-update-date'],
  needsProbe: true,
  rule: 'spec "Reservation": UpdateDate, a Zulu datetime, is the time the event occurred; the newer one is the booking\'s state (docs/spec-rules.md#reservation)',
  fix: `Parse UpdateDate as a UTC instant ("Z") and compare instants, never formatted text or a local time; on the same UpdateDate follow the tie rule: ${TIE_RULE}.`,
  async run({ ctx, options, probe }) {
    const pairs = boundaryPairs(new Date());
    const flows = pairs.map((pair, i) => {
      const seed = deriveSeed(options.seed, 110 + i);
      const issue = generateNotification({ event: 'Issue', seed, at: pair.issueAt }).target;
      const voided = generateNotification({ event: 'Void', seed, at: pair.voidAt, previous: issue }).target;
      const booking: Booking = {
        bookingId: issue.Reservation.BookingID,
        bookingNumber: issue.Reservation.BookingNumber,
      };
      return {
        pair,
        booking,
        order: pair.voidFirst ? [voided, issue] : [issue, voided],
        records: [] as NotificationRecord[],
      };
    });
    // The bookings are independent: each step goes to all of them at once (decision 0257), and a
    // booking's second notification leaves only once its first was answered, as one after the other.
    for (const step of [0, 1]) {
      const sent = await ctx.send(
        flows.map((f) => ({ bookingId: f.booking.bookingId, body: f.order[step]! })),
      );
      for (const [i, f] of flows.entries()) f.records.push(sent[i]!);
    }
    const all = () => flows.flatMap((f) => f.records.map((r) => ctx.record(r.id)));
    await redeliverUnacknowledged(
      ctx,
      all().map((r) => r.id),
    );
    for (const f of flows) f.records = f.records.map((r) => ctx.record(r.id));
    await drain(ctx, probe!);
    const answers = await probe!.untilAll(
      flows.map((f) => f.booking),
      (a) => a.bookingStatus === 'Voided',
      'Voided',
    );
    const evidence: Evidence[] = [];
    const wrong: string[] = [];
    for (const [i, f] of flows.entries()) {
      const answer = answers[i]!;
      evidence.push(...f.records.flatMap((r) => r.attempts.map((a) => evidenceOf(r, options.apiKey, a))));
      evidence.push(
        probeEvidence(answer, `booking ${f.booking.bookingId} after ${f.pair.what}: expected Voided`),
      );
      if (answer.bookingStatus === 'Voided') continue;
      const sent = f.records
        .map(
          (r) =>
            `${r.bookingStatus} (UpdateDate ${r.bookingStatus === 'Voided' ? iso(f.pair.voidAt) : iso(f.pair.issueAt)})`,
        )
        .join(', then ');
      const unacked = f.records.filter((r) => !acknowledged(r.attempts.at(-1)));
      wrong.push(
        unacked.length
          ? `${f.pair.what}: ${unacked.map((r) => `the ${r.bookingStatus} was answered ${shortAnswer(r.attempts.at(-1))}`).join(', ')}, and the probe says ${recordedText(answer)}`
          : `${f.pair.what} (sent ${sent}), both answered 200: the probe says ${recordedText(answer)} for booking ${f.booking.bookingId}: ${f.pair.cause}`,
      );
    }
    const refusedOld = flows.some(
      (f) => !f.pair.voidFirst && f.records.some((r) => !acknowledged(r.attempts.at(-1))),
    );
    const oldNote = refusedOld
      ? ' (the boundaries lie a day to a year back: a receiver that refuses old UpdateDates fails here too, see accepts-old-update-date)'
      : '';
    if (wrong.length) return failed(`${wrong.join('; ')}${oldNote}`, evidence);
    const saved = all().filter((r) => r.attempts.length > 1 && acknowledged(r.attempts.at(-1)));
    if (saved.length)
      return warned(
        `recorded Voided for all four, but only a redelivery saved ${saved.map((r) => `the ${r.bookingStatus} of booking ${r.bookingId} (first answered ${shortAnswer(r.attempts[0])})`).join(', ')}: acknowledge each notification at once, whatever arrived first`,
        evidence,
      );
    return passed(
      `recorded the Void across an hour, a day and a month boundary, and kept it when its Issue with the same UpdateDate came after it${lagNote(answers)}`,
      evidence,
    );
  },
};
