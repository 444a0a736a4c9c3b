/** Bodies a proxy or a validator in front of the receiver may refuse: a large one, an old one. */
import { unpackBody } from '../../contract/index.js';
import type { NotificationRecord } from '../../delivery/index.js';
import { deriveSeed } from '../../generate/index.js';
import { largeBody, oldBody } from '../bodies.js';
import { acknowledged, overCap, shortAnswer } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, judgeAcknowledged, type Outcome } from './case.js';

/** How old the old body is: a manual redelivery of a booking issued days ago. */
export const OLD_BODY_DAYS = 3;

export const acceptsLargeBody: CaseDefinition = {
  id: 'accepts-large-body',
  title: CASE_TITLES['accepts-large-body'],
  rule: 'spec "Notification body": a RawData is raw ticket text with no length limit, and a booking carries arrays of tickets, segments and passengers; "Endpoints 1": the body is GZip-compressed, Content-Length its compressed size (docs/spec-rules.md#notification-body)',
  fix: "Raise every request-size limit in front of the receiver and in it to well above this body (a reverse proxy's client_max_body_size, a framework's body-parser limit, a WAF rule): 1 MiB or more, counted on the compressed body and again after decompression.",
  async run({ ctx, options }): Promise<Outcome> {
    const record = await ctx.sendBody(largeBody(deriveSeed(options.seed, 103), ctx.now()));
    const outcome = judgeAcknowledged([{ record, what: 'the large body' }], options.apiKey, true);
    const size = `${record.gz.length} bytes gzip, ${Buffer.byteLength(JSON.stringify(unpackBody(record.gz)))} bytes of JSON`;
    if (acknowledged(record.attempts.at(-1)) || overCap(record.attempts.at(-1)))
      return { ...outcome, reason: `${outcome.reason} (${size})` };
    return { ...outcome, reason: `${sizeLimitHint(record, size)}. ${outcome.reason}` };
  },
};

/** Names the request-size limit a refused large body points at. */
function sizeLimitHint(record: NotificationRecord, size: string): string {
  const a = record.attempts.at(-1);
  if (a?.outcome === 'http_status' && a.statusCode === 413)
    return `the large body (${size}) was refused with HTTP 413 Payload Too Large: a request-size limit in the receiver or a proxy in front of it is below this size`;
  if (a?.outcome === 'reset' || a?.outcome === 'invalid_response')
    return `the connection broke while the large body (${size}) was sent or answered (${shortAnswer(a)}): a proxy or a body limit cut it off`;
  return `the large body (${size}) was not acknowledged: ${shortAnswer(a)}`;
}

export const acceptsOldUpdateDate: CaseDefinition = {
  id: 'accepts-old-update-date',
  title: CASE_TITLES['accepts-old-update-date'],
  rule: 'spec "Reservation": UpdateDate is the time the event occurred, not the time of sending; "Limits": redeliveries come up to 4 hours later; "Endpoints 2": a manual redelivery notifies a reservation at any later time (docs/spec-rules.md#reservation)',
  fix: 'Never refuse a notification for the age of its UpdateDate (or TicketingDate, BookingDate): order notifications by it (the newest wins), do not use it as a freshness or replay check; the Bearer key confirms the origin.',
  async run({ ctx, options }): Promise<Outcome> {
    const body = oldBody(deriveSeed(options.seed, 104), ctx.now(), OLD_BODY_DAYS);
    const record = await ctx.sendBody(body);
    const what = `the notification with UpdateDate ${body.Reservation.UpdateDate} (${OLD_BODY_DAYS} days old)`;
    const outcome = judgeAcknowledged([{ record, what }], options.apiKey, true);
    if (outcome.status !== 'failed') return outcome;
    return {
      ...outcome,
      reason: `${what} was answered ${shortAnswer(record.attempts.at(-1))}: a receiver that refuses old UpdateDates loses every late redelivery and every manual redelivery of an older booking. ${outcome.reason}`,
    };
  },
};
