/** How the kit words what it sent and what came back (evidence lines and reasons). */
import type { Attempt, NotificationRecord } from '../delivery/index.js';
import type { Evidence } from './types.js';

const BODY_SHOWN_CHARS = 200;

/** Whether an attempt acknowledged its notification (spec "Endpoints 1" rule 2: exactly 200). */
export function acknowledged(attempt: Attempt | undefined): boolean {
  return attempt?.outcome === 'http_status' && attempt.statusCode === 200;
}

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
export function answerText(attempt: Attempt | undefined): string {
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
export function shortAnswer(attempt: Attempt | undefined): string {
  if (!attempt) return 'no attempt';
  if (attempt.outcome === 'http_status') return `HTTP ${attempt.statusCode}`;
  if (attempt.outcome === 'timeout') return `no answer within the response timeout (${attempt.message})`;
  return attempt.message;
}

/** What an unacknowledged answer costs in production, for a failure's reason. */
export function consequence(attempt: Attempt | undefined): string {
  if (!attempt) return '';
  const retried = 'the provider redelivers it in the next 4 hourly batches (minute 55) and then drops it';
  if (attempt.outcome === 'http_status') {
    const s = attempt.statusCode ?? 0;
    if (s >= 200 && s < 300)
      return `only exactly 200 acknowledges: a ${s} counts as a failed delivery, so ${retried}, although you processed it`;
    if (s >= 300 && s < 400) return `redirects are never followed: ${retried}`;
    return `${retried}`;
  }
  if (attempt.outcome === 'timeout')
    return `an answer later than the response timeout is a failed delivery: ${retried}`;
  return `the notification did not reach your receiver: ${retried}`;
}
