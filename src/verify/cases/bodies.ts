/** Cases about body shapes: every optional member missing, and the largest body. */
import { type NotificationBody, unpackBody } from '../../contract/index.js';
import { deriveSeed } from '../../generate/index.js';
import {
  emptyArraysBody,
  MAXIMAL_RATIO_AMOUNT,
  MAXIMAL_TRAITS,
  maximalBody,
  maximalTraitBodies,
  minimalBody,
} from '../bodies.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import type { Variation } from '../experiments.js';
import { type Probe, type ProbeAnswer, probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, type CaseInput, failed, judgeAcknowledged, type Outcome } from './case.js';
import { read } from './probe-checks.js';

export const acceptsMinimalBody: CaseDefinition = {
  id: 'accepts-minimal-body',
  title: CASE_TITLES['accepts-minimal-body'],
  rule: 'spec "Notification body": optional fields may be omitted when they hold no data (Remark, Ratio, Van, ExchangedTo/From, ExternalID, PartnerCC, PartnerUser, BuyerDocument, CreditCard details, Ticket Number/FareAmount/TaxAmount, TaxDetails, …; docs/spec-rules.md#notification-body)',
  fix: 'Treat every member the spec marks optional (and every member of a table without a Required column that the contract makes optional) as possibly absent: no null dereference, no schema that requires it.',
  async run({ ctx, options }) {
    const record = await ctx.sendBody(minimalBody(deriveSeed(options.seed, 101), ctx.now()));
    // Left out, or present and empty: both hold no data.
    const { body, reference } = emptyArraysBody(deriveSeed(options.seed, 106), ctx.now());
    ctx.keepReference(body.Reservation.BookingID, reference);
    const empty = await ctx.sendBody(body);
    return judgeAcknowledged(
      [
        { record, what: 'the minimal body' },
        { record: empty, what: 'the body with every optional array empty' },
      ],
      options.apiKey,
      true,
    );
  },
};

export const acceptsMaximalBody: CaseDefinition = {
  id: 'accepts-maximal-body',
  title: CASE_TITLES['accepts-maximal-body'],
  rule: 'spec "Notification body": a UTF-8 JSON object (names are not limited to ASCII) with arrays of passengers, segments, tickets and taxes; "Ratio": Amount is decimal(16,8); "Limits": the answer within the 30-second response wait (docs/spec-rules.md#notification-body)',
  fix: 'Decode the body as UTF-8, store names and RawData without length or ASCII limits, keep amounts as decimals (8 decimals: a decimal or string column, not a float), and accept every optional member; answer within the response timeout however large the booking.',
  async run(input): Promise<Outcome> {
    const { ctx, options, probe } = input;
    const body = maximalBody(deriveSeed(options.seed, 102), ctx.now());
    const record = await ctx.sendBody(body);
    const outcome = judgeAcknowledged([{ record, what: 'the maximal body' }], options.apiKey, true);
    const size = `${Buffer.byteLength(JSON.stringify(unpackBody(record.gz)))} bytes of JSON, ${record.gz.length} gzipped`;
    if (outcome.status === 'failed') return refusedTraits(input, outcome, size);
    const withSize = { ...outcome, reason: `${outcome.reason} (${size})` };
    return probe ? storedContent(probe, body, withSize) : withSize;
  },
};

/**
 * The experiment findings (experiments.ts) that confirm a trait refused alone: the same class only (a
 * character outside the BMP is outside ASCII too, but "names outside ASCII" would blur that finding).
 */
const TRAIT_VARIATIONS: Record<string, readonly Variation[]> = {
  [MAXIMAL_TRAITS[0]]: ['member'],
  [MAXIMAL_TRAITS[1]]: ['length'],
  [MAXIMAL_TRAITS[2]]: ['non-ascii'],
  [MAXIMAL_TRAITS[3]]: ['elements'],
};

/** Which of the maximal body's traits the receiver refuses: each sent alone on an ordinary Issue. */
async function refusedTraits({ ctx, options }: CaseInput, outcome: Outcome, size: string): Promise<Outcome> {
  const traits = maximalTraitBodies(deriveSeed(options.seed, 105), ctx.now());
  const refused: string[] = [];
  const accepted: string[] = [];
  const evidence = [...(outcome.evidence ?? [])];
  for (const { trait, body } of traits) {
    const record = await ctx.sendBody(body);
    const attempt = record.attempts.at(-1);
    if (acknowledged(attempt)) accepted.push(trait);
    else {
      refused.push(`${trait} (${shortAnswer(attempt)})`);
      evidence.push(evidenceOf(record, options.apiKey));
    }
  }
  const which = refused.length
    ? `Sent alone on an ordinary Issue, the receiver refused: ${refused.join('; ')}${accepted.length ? `; it took: ${accepted.join(', ')}` : ''}`
    : `Each trait alone (${accepted.join(', ')}) was taken: it is their sum, the size of the whole body, that is refused`;
  const confirmedBy = refused.flatMap(
    (r) => TRAIT_VARIATIONS[traits.find((t) => r.startsWith(t.trait))!.trait] ?? [],
  );
  return { ...failed(`${outcome.reason} (${size})`, evidence), guess: { text: which, confirmedBy } };
}

/**
 * With --probe, the members the probe may return beside BookingStatus (docs/verify.md "--probe"):
 * `Pax` (FirstName, LastName), `RatioAmount`, `RawDataLength`. Each one present is compared exactly.
 */
async function storedContent(probe: Probe, body: NotificationBody, outcome: Outcome): Promise<Outcome> {
  const r = body.Reservation;
  const answer = await read(probe, { bookingId: r.BookingID, bookingNumber: r.BookingNumber }, 'Exchanged');
  const evidence = [
    ...(outcome.evidence ?? []),
    probeEvidence(answer, 'expected Exchanged and the stored content'),
  ];
  if (answer.bookingStatus !== 'Exchanged')
    return failed(
      `the maximal body was answered 200, but the probe says ${recordedText(answer)} for booking ${r.BookingID} (expected Exchanged)`,
      evidence,
    );
  const wrong = contentDifferences(answer, body);
  if (wrong.length === 0) {
    const compared = ['Pax', 'RatioAmount', 'RawDataLength'].filter((m) => answer.json?.[m] !== undefined);
    return {
      ...outcome,
      reason: `${outcome.reason}; ${compared.length ? `stored exactly as sent (${compared.join(', ')} compared)` : 'the probe returns no content members to compare (Pax, RatioAmount, RawDataLength)'}`,
      evidence,
    };
  }
  return failed(
    `the maximal body was answered 200, but it was not stored as sent: ${wrong.join('; ')}`,
    evidence,
  );
}

/** Every difference between what the probe returned and what was sent, named for the reader. */
export function contentDifferences(answer: ProbeAnswer, body: NotificationBody): string[] {
  const json = answer.json ?? {};
  const wrong: string[] = [];
  if (Array.isArray(json.Pax)) {
    const stored = json.Pax as Array<{ FirstName?: unknown; LastName?: unknown }>;
    for (const [i, pax] of body.Pax.entries()) {
      const s = stored[i];
      if (s?.FirstName !== pax.FirstName || s?.LastName !== pax.LastName) {
        const got = s ? `${String(s.FirstName)} ${String(s.LastName)}` : 'nothing';
        const mojibake =
          s && Buffer.from(`${pax.FirstName} ${pax.LastName}`, 'utf8').toString('latin1') === got;
        wrong.push(
          `passenger ${i + 1} was sent as ${pax.FirstName} ${pax.LastName}, stored as ${got}${mojibake ? ' (the UTF-8 bytes decoded as Latin-1: decode the body as UTF-8)' : ''}`,
        );
        break;
      }
    }
  }
  if (json.RatioAmount !== undefined) {
    const stored = Number(json.RatioAmount);
    if (stored !== MAXIMAL_RATIO_AMOUNT)
      wrong.push(
        `Ratio.Amount was sent as ${MAXIMAL_RATIO_AMOUNT} (decimal(16,8)), stored as ${String(json.RatioAmount)}: keep all 8 decimals (a decimal or string column, not a float or a rounding)`,
      );
  }
  if (json.RawDataLength !== undefined) {
    const sent = [...body.Ticket[0]!.RawData].length;
    if (json.RawDataLength !== sent)
      wrong.push(
        `the first RawData was sent with ${sent} characters, stored with ${String(json.RawDataLength)}: a column or a parser truncates it`,
      );
  }
  return wrong;
}
