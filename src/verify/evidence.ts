/** How the kit words what it sent and what came back (evidence lines and reasons). */

import { CANCELLED } from '../delivery/attempt/deadline.js';
import { RESPONSE_READ_LIMIT_BYTES } from '../delivery/attempt-handler.js';
import type { Attempt, NotificationRecord } from '../delivery/index.js';
import { acknowledges } from '../model/acknowledgement.js';
import type { Evidence } from './types.js';

const BODY_SHOWN_CHARS = 200;

/** What the judgements read of an attempt (an outbox attempt, or a send of `verify --replay`). */
export type Answer = Pick<Attempt, 'outcome' | 'statusCode' | 'message' | 'responseBody' | 'durationMs'>;

/**
 * The kit's one judgement of whether the receiver acknowledged a notification: the project's rule
 * (`acknowledges`, spec "Endpoints 1" rule 2: exactly 200) plus one verify rule: a 200 whose answer
 * body passed the emulator's read limit counts too, since the spec ignores the answer body ("Endpoints
 * 1" rule 4) and the limit is the emulator's own safety cap (`overCap` warns of it). Every case asks
 * this of the receiver's last answer, never the delivery engine's `delivered`/`pending` state (which
 * follows the emulator's cap).
 */
export function acknowledged(attempt: Answer | undefined): boolean {
  return acknowledges(attempt) || overCap(attempt);
}

/** A 200 whose answer body passed the emulator's 64 KiB read limit (the emulator stopped reading). */
export function overCap(attempt: Answer | undefined): boolean {
  return (
    attempt?.outcome === 'invalid_response' &&
    attempt.statusCode === 200 &&
    attempt.message.startsWith('response body longer than')
  );
}

/** The warning for answers over the read limit. */
export const OVER_CAP_WARNING = `answered 200 with a body over ${RESPONSE_READ_LIMIT_BYTES / 1024} KiB: the spec ignores the answer body ("Endpoints 1" rule 4), so this is not a contract failure, but this emulator stops reading at ${RESPONSE_READ_LIMIT_BYTES / 1024} KiB (its own safety limit) and counts the attempt as an invalid response; answer a short body (e.g. "OK")`;

/** How the Authorization header of a notification reads in a report (never the real key itself). */
export function authorizationText(record: NotificationRecord, apiKey: string): string {
  if (record.authorization === '') return 'no Authorization header';
  if (record.authorization === `Bearer ${apiKey}`) return 'Authorization: Bearer <your ApiKey>';
  return `Authorization: ${record.authorization} (another key)`;
}

/** What one attempt sent. */
export function sentText(record: NotificationRecord, attempt: Attempt | undefined, apiKey: string): string {
  const when = attempt?.batchAt ? `, redelivery in the batch at ${attempt.batchAt}` : '';
  return (
    `POST ${record.url}: ${record.bookingStatus} BookingID ${record.bookingId} (filename ${record.filename}, ` +
    `${record.gz.length} bytes gzip), ${authorizationText(record, apiKey)}${when}`
  );
}

/** What came back for one attempt. */
export function answerText(attempt: Answer | undefined): string {
  if (!attempt) return 'nothing: the attempt did not run';
  if (attempt.outcome === 'http_status') {
    const body = attempt.responseBody?.trim();
    const shown = body
      ? `, body ${JSON.stringify(body.length > BODY_SHOWN_CHARS ? `${body.slice(0, BODY_SHOWN_CHARS)}…` : body)}`
      : '';
    return `HTTP ${attempt.statusCode} after ${Math.round(attempt.durationMs)} ms${shown}`;
  }
  return `${attempt.outcome} after ${Math.round(attempt.durationMs)} ms: ${attempt.message}`;
}

/** One evidence line for one attempt (default: the last one). */
export function evidenceOf(
  record: NotificationRecord,
  apiKey: string,
  attempt = record.attempts.at(-1),
): Evidence {
  return { sent: sentText(record, attempt, apiKey), received: answerText(attempt) };
}

/** The short form of an answer for a reason line: `HTTP 202`, `a timeout after 30000 ms`, … */
export function shortAnswer(attempt: Answer | undefined): string {
  if (!attempt) return 'no attempt';
  if (attempt.outcome === 'http_status') return `HTTP ${attempt.statusCode}`;
  if (overCap(attempt)) return `HTTP 200 with a body over ${RESPONSE_READ_LIMIT_BYTES / 1024} KiB`;
  if (unendedAnswer(attempt)) return `HTTP ${attempt.statusCode} whose body never ended (${attempt.message})`;
  if (attempt.outcome === 'timeout') return `no answer within the response timeout (${attempt.message})`;
  // An attempt the kit cut (context.ts): how long it had waited, then why.
  if (attempt.outcome === 'interrupted' && attempt.message.startsWith(CANCELLED))
    return `no answer after ${attempt.durationMs} ms, then ${attempt.message}`;
  return attempt.message;
}

/**
 * A status line came back, then nothing ended the answer before the deadline: typically a 200 with
 * neither Content-Length nor chunked encoding on a kept-alive connection, whose body ends only when
 * the connection closes.
 */
export function unendedAnswer(attempt: Answer | undefined): boolean {
  return attempt?.outcome === 'timeout' && attempt.statusCode !== undefined;
}

/** Outcomes where the request never got to the receiver (nothing was sent). */
const NOT_SENT = new Set(['connect_refused', 'dns_error', 'tls_error']);

/** What an unacknowledged answer costs in production, for a failure's reason. */
export function consequence(attempt: Answer | undefined): string {
  if (!attempt) return '';
  const retried = 'the provider redelivers it in the next 4 hourly batches (minute 55) and then drops it';
  if (attempt.outcome === 'http_status') {
    const s = attempt.statusCode ?? 0;
    if (s >= 200 && s < 300)
      return `only exactly 200 acknowledges: a ${s} counts as a failed delivery, so ${retried}, although you processed it`;
    if (s >= 300 && s < 400) return `redirects are never followed: ${retried}`;
    return `${retried}`;
  }
  if (unendedAnswer(attempt))
    return (
      `the receiver answered ${attempt.statusCode} in time, but the answer never ended: with neither Content-Length nor Transfer-Encoding: chunked on a kept-alive connection, ` +
      `the body ends only when the connection closes, so the sender waited for the response timeout; send Content-Length (e.g. Content-Length: 2 with "OK") or close the connection. Meanwhile ${retried}`
    );
  if (attempt.outcome === 'timeout')
    return `an answer later than the response timeout is a failed delivery: ${retried}`;
  if (NOT_SENT.has(attempt.outcome)) return `the notification did not reach your receiver: ${retried}`;
  return `the request was sent whole, but the answer was not a complete HTTP response: ${retried}`;
}

/** The headers the provider sends (spec "Endpoints 1"), for causes that name a missing one. */
const SENT_HEADERS =
  'User-Agent: Service-ReportBO, Authorization, Content-Type: application/json, Content-Encoding: gzip, Content-Length and Content-Disposition';

/**
 * When a refusal's answer body points at a header or a field (a required extra header, a strict
 * Content-Type match, an UpdateDate read as local time), what it points at, quoted, and the fix.
 */
export function pointedCause(attempt: Answer | undefined): { what: string; fix: string } | undefined {
  const body = attempt?.outcome === 'http_status' ? attempt.responseBody?.trim() : undefined;
  if (!body || (attempt!.statusCode ?? 0) < 400) return undefined;
  const quoted = JSON.stringify(
    body.length > BODY_SHOWN_CHARS ? `${body.slice(0, BODY_SHOWN_CHARS)}…` : body,
  );
  if (/content-type|media type|charset/i.test(body))
    return {
      what: `the Content-Type (the receiver answered ${quoted})`,
      fix: `Compare Content-Type by its media type only, ignoring case and parameters: the provider sends exactly "Content-Type: application/json" (the JSON inside the gzip body, "Content-Encoding: gzip"); a receiver that demands another value or a charset parameter refuses every notification. The receiver answered ${quoted}.`,
    };
  const header = /\b(x-[a-z0-9-]+)\b/i.exec(body)?.[1];
  if (header || /\bheaders?\b(?! check)/i.test(body))
    return {
      what: `a header${header ? ` (${header})` : ''} the provider does not send (the receiver answered ${quoted})`,
      fix: `Require no header the provider does not send: it sends ${SENT_HEADERS}, nothing else${header ? `, never ${header}` : ''}. The receiver answered ${quoted}.`,
    };
  if (/updatedate|future|time ?zone|timestamp|too old|stale/i.test(body))
    return {
      what: `the UpdateDate (the receiver answered ${quoted})`,
      fix: `UpdateDate is a UTC time (it ends in "Z"): parse it as UTC, never as local time. Read as local time it moves by the receiver's UTC offset, so a freshness check finds it hours in the future or in the past; better, never refuse a notification for its UpdateDate. The receiver answered ${quoted}.`,
    };
  return undefined;
}

/**
 * The fix that fits what came back, when it is not the case's own (a 2xx other than 200 keeps the
 * case's fix, which is about answering exactly 200): a timeout, an answer that never ended, a
 * refusal, a broken connection each get theirs.
 */
export function fixForAnswer(attempt: Answer | undefined): string | undefined {
  if (!attempt) return undefined;
  const pointed = pointedCause(attempt);
  if (pointed) return pointed.fix;
  if (attempt.outcome === 'http_status') {
    const s = attempt.statusCode ?? 0;
    if (s >= 200 && s < 300) return undefined;
    if (s >= 300 && s < 400)
      return 'Do not redirect the notification URL: the provider never follows a redirect; give the final URL (the Location) as the destination.';
    if (s === 401 || s === 403)
      return 'Accept "Authorization: Bearer <ApiKey>" with exactly the key of the credential (check --api-key and the key the receiver expects).';
    if (s < 500)
      return `Find why the receiver refused a valid notification with HTTP ${s} (its answer is shown above): check that it gunzips the body (Content-Encoding: gzip) before parsing the spec's JSON (UTF-8), and requires no header, Content-Type or date format the provider does not send.`;
    return `The receiver failed on a valid notification (HTTP ${s}): read its logs for this request and fix the error; answer 200 once the notification is stored.`;
  }
  if (unendedAnswer(attempt))
    return 'End every answer: send Content-Length (e.g. Content-Length: 2 with "OK") or Transfer-Encoding: chunked, or close the connection after the answer.';
  if (attempt.outcome === 'timeout')
    return 'Answer within the response timeout: store the notification and answer 200 at once; do slow work (downstream calls, heavy validation) afterwards, from a queue.';
  if (NOT_SENT.has(attempt.outcome))
    return 'Make the receiver reachable at this URL: listening, resolvable, and serving TLS as the tls case describes.';
  return "Answer with a complete HTTP/1.1 response: check a proxy or load balancer in front of the receiver that cuts connections, and the receiver's response framing (status line, headers, Content-Length).";
}
