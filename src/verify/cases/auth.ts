/**
 * Cases about the Bearer ApiKey: another key (and malformed ones), and no Authorization header at
 * all. Each sends a valid notification too, as a control: a refusal means something only when valid
 * notifications are answered otherwise. With --probe, a refused notification must have no effect.
 */
import type { NotificationRecord } from '../../delivery/index.js';
import { type CredentialKind, otherCase } from '../context.js';
import { acknowledged, evidenceOf, shortAnswer } from '../evidence.js';
import { type ProbeAnswer, probeEvidence, recordedText } from '../probe.js';
import { CASE_TITLES, type Evidence } from '../types.js';
import {
  type CaseDefinition,
  type CaseInput,
  failed,
  type Outcome,
  passed,
  reached,
  warned,
} from './case.js';
import { booking, drain } from './probe-checks.js';

const RULE =
  'spec "Authentication" 1 and "Endpoints 1" rule 3: every delivery carries Authorization: Bearer <ApiKey> of the credential, and the receiver checks it on every request to confirm the origin (docs/spec-rules.md#authentication)';

/** What each refused credential sends, for reasons. */
const WHAT: Record<Exclude<CredentialKind, 'api-key'>, string> = {
  'wrong-key': 'with another Bearer key',
  'no-authorization': 'without any Authorization header',
  'empty-bearer': 'with "Bearer " and an empty token',
  'key-prefix': 'with the first half of your key as Bearer token (a prefix)',
  'key-other-case': 'with your key in another letter case',
  basic: 'with "Basic <base64 of reportbo:your key>" instead of Bearer',
  'other-credential': 'with the ApiKey of another credential (--other-api-key)',
};

interface Sent {
  kind: Exclude<CredentialKind, 'api-key'>;
  record: NotificationRecord;
}

const statusOf = (r: NotificationRecord) => {
  const a = r.attempts.at(-1);
  return a?.outcome === 'http_status' ? `HTTP ${a.statusCode}` : a?.outcome;
};

async function judgeRejected(
  { ctx, options, probe }: CaseInput,
  kinds: ReadonlyArray<Exclude<CredentialKind, 'api-key'>>,
): Promise<Outcome> {
  // The control: what a valid notification gets from this receiver.
  const [control] = await ctx.send(ctx.issue().emit, 'api-key');
  // Every refused credential at once: a receiver that holds refused requests costs one wait, not one each.
  const ids = kinds.map((kind) => ({ kind, id: ctx.dispatch(ctx.issue().emit, kind)[0]! }));
  await ctx.settle(ids.map((x) => x.id));
  const sent: Sent[] = ids.map(({ kind, id }) => ({ kind, record: ctx.record(id) }));
  const evidence: Evidence[] = [
    {
      ...evidenceOf(control!, options.apiKey),
      sent: `${evidenceOf(control!, options.apiKey).sent} [control]`,
    },
    ...sent.map((s) => evidenceOf(s.record, options.apiKey)),
  ];
  const failures: string[] = [];
  const inconclusive: string[] = [];
  const refused: string[] = [];
  const controlStatus = statusOf(control!);
  const unreached = sent.filter((x) => !reached(x.record));
  if (unreached.length === sent.length)
    return failed(
      `could not be judged: the notification did not reach the receiver (${unreached[0]!.record.attempts.at(-1)?.message})${sent.length > 1 ? `, nor did the ${sent.length - 1} others` : ''}`,
      evidence,
    );
  /** Forged notifications answered 2xx: a failure, unless the probe proves nothing was stored. */
  const taken: Array<{ kind: Sent['kind']; record: NotificationRecord; text: string }> = [];
  for (const { kind, record } of sent) {
    const attempt = record.attempts.at(-1);
    const what = `a notification ${WHAT[kind]}`;
    if (!reached(record)) {
      failures.push(`${what} could not be judged: it did not reach the receiver (${attempt?.message})`);
    } else if (acknowledged(attempt)) {
      taken.push({ kind, record, text: `answered 200 to ${what}` });
    } else if (statusOf(record) === controlStatus) {
      inconclusive.push(`${what} got ${shortAnswer(attempt)}, the same answer as a valid notification`);
    } else if (
      attempt?.outcome === 'http_status' &&
      attempt.statusCode! >= 200 &&
      attempt.statusCode! < 300
    ) {
      taken.push({ kind, record, text: `answered ${attempt.statusCode} to ${what}` });
    } else refused.push(`${WHAT[kind]}: ${shortAnswer(attempt)}`);
  }
  const notStored: string[] = [];
  const stored = new Map<NotificationRecord, ProbeAnswer>();
  if (probe) {
    // A refused notification must have no effect: once the queue is past them, they are unknown.
    await drain(ctx, probe);
    for (const { kind, record } of sent) {
      const b = booking({ bookingId: record.bookingId, bookingNumber: record.bookingNumber });
      const answer = await probe.get(b, 'unknown');
      evidence.push(
        probeEvidence(answer, `booking of the notification ${WHAT[kind]}: expected 404 (unknown)`),
      );
      if (answer.status !== 404) stored.set(record, answer);
      if (answer.status !== 404 && !taken.some((t) => t.record === record))
        failures.push(
          `the notification ${WHAT[kind]} was answered ${shortAnswer(record.attempts.at(-1))}, but the probe says ${recordedText(answer)} for its booking ${b.bookingId}: the receiver stored it before checking the key (a refused notification must change nothing)`,
        );
    }
  }
  for (const t of taken) {
    const answer = stored.get(t.record);
    // The spec asks the receiver to check the key, not to answer 401: when the probe proves the
    // forged notification changed nothing, the 2xx misleads but injects nothing.
    if (probe && !answer) notStored.push(`${t.text}, but the probe shows nothing stored for its booking`);
    else
      failures.push(
        `${t.text}: ${t.text.startsWith('answered 200') ? 'anyone who learns your URL can inject or change bookings' : 'a 2xx is never a refusal, it says the notification was taken; answer 401'}${answer ? ` (the probe says ${recordedText(answer)} for booking ${t.record.bookingId})` : ''}`,
      );
  }
  const advice = sent.some(({ record }) => ![401, 403].includes(record.attempts.at(-1)?.statusCode ?? 0))
    ? ' (401 or 403 says why more clearly)'
    : '';
  if (failures.length) return failed(failures.join('; '), evidence);
  if (notStored.length)
    return warned(
      `${notStored.join('; ')}: the key seems checked before storing, but a 2xx tells the sender the notification was taken; answer 401 (or 403) to a notification whose key does not match`,
      evidence,
    );
  if (inconclusive.length)
    return warned(
      `inconclusive: ${inconclusive.join('; ')} (${controlStatus}), so this does not show that the key is checked; make valid notifications pass first`,
      evidence,
    );
  const checked = probe ? '; the probe shows none of them stored' : '';
  return passed(
    sent.length === 1
      ? `refused it with ${refused[0]!.slice(WHAT[sent[0]!.kind].length + 2)}${advice}${checked}`
      : `refused every one (${refused.join('; ')})${advice}${checked}`,
    evidence,
  );
}

export const rejectsWrongApiKey: CaseDefinition = {
  id: 'rejects-wrong-api-key',
  title: CASE_TITLES['rejects-wrong-api-key'],
  rule: RULE,
  fix: 'Compare the whole Authorization value with "Bearer " + your ApiKey(s) on every request, exactly (same case, full length, in constant time); answer 401 when it does not match, before storing anything.',
  run: (input) => {
    const kinds: Array<Exclude<CredentialKind, 'api-key'>> = ['wrong-key', 'empty-bearer'];
    // A prefix needs a key of 2 characters or more (half of it, never empty).
    if (input.options.apiKey.length >= 2) kinds.push('key-prefix');
    if (otherCase(input.options.apiKey) !== input.options.apiKey) kinds.push('key-other-case');
    kinds.push('basic');
    if (input.options.otherApiKey) kinds.push('other-credential');
    return judgeRejected(input, kinds);
  },
};

export const rejectsMissingAuthorization: CaseDefinition = {
  id: 'rejects-missing-authorization',
  title: CASE_TITLES['rejects-missing-authorization'],
  rule: RULE,
  fix: 'Treat a missing or malformed Authorization header like a wrong key: answer 401 and store nothing.',
  run: (input) => judgeRejected(input, ['no-authorization']),
};
