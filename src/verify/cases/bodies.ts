/** Cases about body shapes: every optional member missing, and the largest body. */
import { unpackBody } from '../../contract/index.js';
import { deriveSeed } from '../../generate/index.js';
import { maximalBody, minimalBody } from '../bodies.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, judgeAcknowledged, type Outcome } from './case.js';

export const acceptsMinimalBody: CaseDefinition = {
  id: 'accepts-minimal-body',
  title: CASE_TITLES['accepts-minimal-body'],
  rule: 'spec "Notification body": optional fields may be omitted when they hold no data (Remark, Ratio, Van, ExchangedTo/From, ExternalID, PartnerCC, PartnerUser, BuyerDocument, CreditCard details, Ticket Number/FareAmount/TaxAmount, TaxDetails, …; docs/spec-rules.md#notification-body)',
  fix: 'Treat every member the spec marks optional (and every member of a table without a Required column that the contract makes optional) as possibly absent: no null dereference, no schema that requires it.',
  async run({ ctx, options }) {
    const record = await ctx.sendBody(minimalBody(deriveSeed(options.seed, 101), ctx.now()));
    return judgeAcknowledged([{ record, what: 'the minimal body' }], options.apiKey);
  },
};

export const acceptsMaximalBody: CaseDefinition = {
  id: 'accepts-maximal-body',
  title: CASE_TITLES['accepts-maximal-body'],
  rule: 'spec "Notification body": a UTF-8 JSON object (names are not limited to ASCII) with arrays of passengers, segments, tickets and taxes; "Limits": the answer within the 30-second response wait (docs/spec-rules.md#notification-body)',
  fix: 'Decode the body as UTF-8, store names and RawData without length or ASCII limits, and accept every optional member; answer within the response timeout however large the booking.',
  async run({ ctx, options }): Promise<Outcome> {
    const record = await ctx.sendBody(maximalBody(deriveSeed(options.seed, 102), ctx.now()));
    const outcome = judgeAcknowledged([{ record, what: 'the maximal body' }], options.apiKey);
    const size = Buffer.byteLength(JSON.stringify(unpackBody(record.gz)));
    return { ...outcome, reason: `${outcome.reason} (${size} bytes of JSON, ${record.gz.length} gzipped)` };
  },
};
