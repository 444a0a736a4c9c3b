/** Cases about acknowledging: exactly 200 for every status, and again for a redelivery. */
import { acknowledged, consequence, evidenceOf, shortAnswer } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, capitalize, failed, judgeAcknowledged, passed, STEP_MS } from './case.js';

const EXACTLY_200 =
  'spec "Endpoints 1" rule 2: the receiver answers with HTTP status exactly 200 to acknowledge; any other status, other 2xx included, is a delivery failure and triggers redelivery (docs/spec-rules.md#endpoints-1)';

export const acknowledgesIssue: CaseDefinition = {
  id: 'acknowledges-issue',
  title: CASE_TITLES['acknowledges-issue'],
  rule: EXACTLY_200,
  fix: 'Answer exactly 200 once the notification is stored (not 201, 202 or 204); do slow work after answering, or queue it.',
  async run({ ctx, options }) {
    const [record] = await ctx.send(ctx.issue().emit);
    return judgeAcknowledged([{ record: record!, what: 'the Issue' }], options.apiKey);
  },
};

export const acknowledgesEveryStatus: CaseDefinition = {
  id: 'acknowledges-every-status',
  title: CASE_TITLES['acknowledges-every-status'],
  rule: `spec "Reservation": BookingStatus is one of Issued, Voided, Exchanged, Issued-Exch (ExchangedTo/ExchangedFrom link an exchange; docs/spec-rules.md#reservation); ${EXACTLY_200}`,
  fix: 'Accept every BookingStatus of the spec (Issued, Voided, Exchanged, Issued-Exch) and the ExchangedTo/ExchangedFrom members, and answer each with exactly 200.',
  async run({ ctx, options }) {
    // The Issues go first (their answers are not judged here: acknowledges-issue does that).
    const a = ctx.issue();
    const b = ctx.issue();
    await ctx.send([...a.emit, ...b.emit]);
    await ctx.tick(STEP_MS);
    const voided = ctx.void(a.reservations[0]!.bookingId);
    const exchanged = ctx.exchange(b.reservations[0]!.bookingId);
    const records = await ctx.send([...voided.emit, ...exchanged.emit]);
    return judgeAcknowledged(
      records.map((record) => ({
        record,
        what: `the ${record.bookingStatus}${record.bookingStatus === 'Exchanged' ? ' (ExchangedTo set)' : record.bookingStatus === 'Issued-Exch' ? ' (ExchangedFrom set)' : ''}`,
      })),
      options.apiKey,
    );
  },
};

export const acknowledgesRedelivery: CaseDefinition = {
  id: 'acknowledges-redelivery',
  title: CASE_TITLES['acknowledges-redelivery'],
  rule:
    'spec "Errors" and "Limits": a delivery that failed on the provider side (e.g. no answer within 30 s) is redelivered, up to 4 times, in the minute-55 batches; every attempt carries the same body, headers and filename (docs/spec-rules.md#limits). ' +
    EXACTLY_200,
  fix: 'Make the receiver idempotent: when a notification it already stored arrives again (same BookingID, UpdateDate and BookingStatus, or same bytes), answer 200 again instead of 409 or another error.',
  async run({ ctx, options }) {
    const issued = ctx.issue();
    const [first] = await ctx.send(issued.emit);
    await ctx.tick(STEP_MS);
    // The same bytes again, left pending (as if the first answer had been lost on the way back) and
    // redelivered by the next minute-55 batch.
    const [again] = await ctx.sendDuringOutage(issued.emit);
    await ctx.nextBatch();
    const redelivered = ctx.record(again!.id);
    const attempt = redelivered.attempts.at(-1);
    const evidence = [evidenceOf(first!, options.apiKey), evidenceOf(redelivered, options.apiKey, attempt)];
    const firstNote = acknowledged(first!.attempts[0])
      ? ''
      : ` (the first delivery was not acknowledged either: ${shortAnswer(first!.attempts[0])})`;
    if (acknowledged(attempt))
      return passed(
        `answered 200 to the redelivery too (${Math.round(attempt!.durationMs)} ms)${firstNote}`,
        evidence,
      );
    return failed(
      `the redelivery of a notification it had already taken was answered ${shortAnswer(attempt)}${firstNote}. ` +
        `${capitalize(consequence(attempt))}; when the first answer was lost, that booking is lost`,
      evidence,
    );
  },
};
