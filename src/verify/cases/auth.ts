/** Cases about the Bearer ApiKey: another key, and no Authorization header at all. */
import type { NotificationRecord } from '../../delivery/index.js';
import type { CredentialKind } from '../context.js';
import { evidenceOf, shortAnswer } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, type CaseInput, failed, type Outcome, passed, reached } from './case.js';

const RULE =
  'spec "Authentication" 1 and "Endpoints 1" rule 3: every delivery carries Authorization: Bearer <ApiKey> of the credential, and the receiver checks it on every request to confirm the origin (docs/spec-rules.md#authentication)';

async function judgeRejected(
  { ctx, options }: CaseInput,
  kind: CredentialKind,
  what: string,
): Promise<Outcome> {
  const [record] = await ctx.send(ctx.issue().emit, kind);
  return verdict(record!, what, options.apiKey);
}

function verdict(record: NotificationRecord, what: string, apiKey: string): Outcome {
  const attempt = record.attempts.at(-1);
  const evidence = [evidenceOf(record, apiKey, attempt)];
  if (!reached(record))
    return failed(
      `could not be judged: the notification did not reach the receiver (${attempt?.message})`,
      evidence,
    );
  if (attempt?.outcome === 'http_status' && attempt.statusCode === 200) {
    return failed(
      `answered 200 to a notification ${what}: anyone who learns your URL can inject or change bookings`,
      evidence,
    );
  }
  const advice =
    attempt?.statusCode === 401 || attempt?.statusCode === 403 ? '' : ' (401 or 403 says why more clearly)';
  return passed(`refused it with ${shortAnswer(attempt)}${advice}`, evidence);
}

export const rejectsWrongApiKey: CaseDefinition = {
  id: 'rejects-wrong-api-key',
  title: CASE_TITLES['rejects-wrong-api-key'],
  rule: RULE,
  fix: 'Compare the Bearer value with your ApiKey(s) on every request (in constant time) and answer 401 when it does not match.',
  run: (input) => judgeRejected(input, 'wrong-key', 'with another Bearer key'),
};

export const rejectsMissingAuthorization: CaseDefinition = {
  id: 'rejects-missing-authorization',
  title: CASE_TITLES['rejects-missing-authorization'],
  rule: RULE,
  fix: 'Treat a missing or malformed Authorization header like a wrong key: answer 401 and store nothing.',
  run: (input) => judgeRejected(input, 'no-authorization', 'without any Authorization header'),
};
