/**
 * handles-void-before-issue. The kit simulates the Issue's failed attempts by holding the Issue
 * back: the Void goes first, is redelivered in up to 4 minute-55 batches while the Issue stays
 * undelivered, and only then does the Issue arrive (docs/verify.md, decision 0027).
 */
import { MAX_REDELIVERIES } from '../../delivery/index.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, MINUTE_MS, passed, warned } from './case.js';

/** Minutes between the Issue and its Void (both well before minute 55 of the case's hour). */
const VOID_AFTER_MINUTES = 10;

export const handlesVoidBeforeIssue: CaseDefinition = {
  id: 'handles-void-before-issue',
  title: CASE_TITLES['handles-void-before-issue'],
  rule: 'spec "Events": delivery is asynchronous; "Limits": a failed delivery is retried only in the hourly batches, up to 4 times, and may be dropped, so a Void can arrive before its Issue, or without it (docs/spec-rules.md#events)',
  fix: 'Store a Void for a booking you do not know yet (e.g. as a placeholder keyed by BookingID) and answer 200 at once; when the Issue arrives later, answer 200 and keep the newer state (compare UpdateDate).',
  async run({ ctx, options }) {
    const issued = ctx.issue(); // its attempts "fail": held back until the Void's fate is known
    await ctx.tick(VOID_AFTER_MINUTES * MINUTE_MS);
    const [first] = await ctx.send(ctx.void(issued.reservations[0]!.bookingId).emit);
    for (let batch = 0; batch < MAX_REDELIVERIES && ctx.record(first!.id).state === 'pending'; batch++)
      await ctx.nextBatch();
    const voided = ctx.record(first!.id);
    const [lateIssue] = await ctx.send(issued.emit);
    const evidence = [
      ...voided.attempts.map((a) => evidenceOf(voided, options.apiKey, a)),
      evidenceOf(lateIssue!, options.apiKey),
    ];
    const firstAnswer = shortAnswer(voided.attempts[0]);
    const issueAcked = acknowledged(lateIssue!.attempts[0]);
    const issueNote = issueAcked
      ? ''
      : `; the Issue that arrived after it was answered ${shortAnswer(lateIssue!.attempts[0])}, so it would be redelivered 4 times and dropped`;

    if (voided.state !== 'delivered') {
      return failed(
        `the Void was never acknowledged: all ${voided.attempts.length} attempts (first and ${voided.attempts.length - 1} redeliveries) went unacknowledged, the first with ${firstAnswer}; the provider then drops it and the booking stays issued in your records${issueNote}`,
        evidence,
      );
    }
    if (!issueAcked) return failed(`the Void was acknowledged${issueNote.replace(';', ', but')}`, evidence);
    if (voided.attempts.length === 1)
      return passed('acknowledged the Void at once, and the Issue that arrived after it', evidence);
    const saving = voided.attempts.at(-1)!;
    return warned(
      `only redelivery ${voided.attempts.length - 1} (batch at ${saving.batchAt}) saved the Void: it was first answered ${firstAnswer}; ` +
        'the Issue can arrive later than your last redelivery, or never, so acknowledge a Void at once',
      evidence,
    );
  },
};
