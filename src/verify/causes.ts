/**
 * One cause, named once: when many cases fail for one reason (every answer 401, every valid body
 * refused with one 4xx, a redirect everywhere, a receiver that stopped answering), the report says so
 * first, with what to fix first, instead of a dozen case fixes that each name a symptom.
 */
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Attempt } from '../delivery/index.js';
import type { MeasuredAttempt } from './context.js';
import { pointedCause, sentText } from './evidence.js';
import type { CaseId, CaseResult, CauseGroup } from './types.js';

/** Below this many judged deliveries a shared answer says little. */
const MIN_ANSWERS = 3;
/** Cases whose notifications are meant to be refused (their 401s are right). */
const REFUSING_CASES = new Set(['rejects-wrong-api-key', 'rejects-missing-authorization']);

/** The receiver stopped accepting connections after it had answered: the last request before it. */
export interface Death {
  caseId: string;
  lastAnswered: string;
  firstRefused: string;
}

/** How long a refused connection must last to count as a death (docs/verify.md "Dead or slow"). */
export const SUSTAINED_MS = 3_000;
const RECONNECT_EVERY_MS = 250;

/**
 * The sustained confirmation of a death: connects (TCP) to the receiver's host and port every 250 ms
 * for SUSTAINED_MS. Answers the ms after which a connection was accepted again (a restart, a listen
 * backlog that overflowed for a moment: the receiver is not dead), or undefined when every try failed.
 */
export async function reconnects(receiver: string, sustainedMs = SUSTAINED_MS): Promise<number | undefined> {
  const url = new URL(receiver);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const started = performance.now();
  while (performance.now() - started < sustainedMs) {
    const tried = performance.now();
    const accepted = await new Promise<boolean>((resolve) => {
      const socket = connect({ host, port });
      const done = (ok: boolean) => {
        socket.destroy();
        resolve(ok);
      };
      socket.setTimeout(RECONNECT_EVERY_MS * 4, () => done(false));
      socket.once('connect', () => done(true));
      socket.once('error', () => done(false));
    });
    if (accepted) return Math.round(performance.now() - started);
    const wait = RECONNECT_EVERY_MS - (performance.now() - tried);
    if (wait > 0) await sleep(wait);
  }
  return undefined;
}

const REACHED = new Set(['http_status', 'timeout', 'reset', 'invalid_response']);

/** Whether the receiver died: a connection refused after an answer. Attempts in run order. */
export function findDeath(
  attempts: readonly MeasuredAttempt[],
  apiKey: string,
  /** Refusals the receiver recovered from (`reconnects`): not a death. */
  dismissed: ReadonlySet<Attempt> = new Set(),
): Death | undefined {
  const ordered = [...attempts].sort((a, b) =>
    a.attempt.startedAtWall.localeCompare(b.attempt.startedAtWall),
  );
  let last: MeasuredAttempt | undefined;
  for (const m of ordered) {
    if (REACHED.has(m.attempt.outcome)) last = m;
    // Refused, not slow: a connect timeout under load is a slow accept (a concurrency finding).
    else if (
      m.attempt.outcome === 'connect_refused' &&
      !/ETIMEDOUT/.test(m.attempt.message) &&
      !dismissed.has(m.attempt) &&
      last
    )
      return {
        caseId: m.caseId,
        lastAnswered: `${sentText(last.record, last.attempt, apiKey)} [case ${last.caseId}], answered ${last.attempt.outcome === 'http_status' ? `HTTP ${last.attempt.statusCode}` : last.attempt.message}`,
        firstRefused: `${m.attempt.message} [case ${m.caseId}]`,
      };
  }
  return undefined;
}

/** The causes shared by several failed cases, most fundamental first. */
export function groupCauses(
  results: readonly CaseResult[],
  attempts: readonly MeasuredAttempt[],
  apiKey: string,
  death: Death | undefined,
  /** What the experiments found for an answer (`HTTP 401`, …), when they found something. */
  found: (answer: string) => { kind: string; finding?: string; fix?: string } | undefined = () => undefined,
): CauseGroup[] {
  const failed = results.filter((r) => r.status === 'failed').map((r) => r.id);
  const groups: CauseGroup[] = [];
  if (death) {
    groups.push({
      cause: 'receiver-stopped',
      summary: `the receiver stopped accepting connections during ${death.caseId}: ${death.firstRefused}`,
      fixFirst: `Find out why the receiver stopped (crash, out of memory, a restart) right after this request: ${death.lastAnswered}. The cases after it were not run; their fixes do not apply until it stays up.`,
      cases: failed,
    });
    return groups;
  }
  const valid = attempts.filter(
    (m) =>
      !REFUSING_CASES.has(m.caseId) &&
      m.record.authorization === `Bearer ${apiKey}` &&
      REACHED.has(m.attempt.outcome),
  );
  if (valid.length < MIN_ANSWERS || failed.length < 2) return groups;
  const statuses = new Set(
    valid.map((m) => (m.attempt.outcome === 'http_status' ? m.attempt.statusCode : -1)),
  );
  if (statuses.size !== 1) return groups;
  const status = [...statuses][0]!;
  const casesOf = () =>
    [...new Set(valid.map((m) => m.caseId as CaseId))].filter((id) => failed.includes(id));
  if (status === 401 || status === 403) {
    groups.push({
      cause: 'api-key',
      summary: `every notification with your key was answered ${status} (${valid.length} of ${valid.length})`,
      fixFirst: `Check --api-key: it must be the exact key your receiver expects in "Authorization: Bearer <key>" (no quotes, no spaces, same case). The kit sent: ${sentText(valid[0]!.record, valid[0]!.attempt, apiKey)}.`,
      cases: casesOf(),
    });
  } else if (status >= 300 && status < 400) {
    const location = /redirect to (\S+) not followed/.exec(valid[0]!.attempt.message)?.[1];
    groups.push({
      cause: 'redirect',
      summary: `every notification was answered ${status}${location ? ` with Location: ${location}` : ''}: redirects are never followed`,
      fixFirst: location
        ? `Give the URL the redirect points to as --receiver (${location}), or stop redirecting (e.g. http→https, a missing or extra trailing slash).`
        : 'Give the final URL as --receiver, or stop redirecting (e.g. http→https, a missing or extra trailing slash).',
      cases: casesOf(),
    });
  } else if (status >= 400 && status < 500) {
    const pointed = pointedCause(valid[0]!.attempt);
    groups.push({
      cause: 'valid-bodies-refused',
      summary: `every valid notification was answered ${status} (${valid.length} of ${valid.length}), whatever its body`,
      fixFirst: `${pointed ? `${pointed.fix} Otherwise check` : 'Check'}, in this order: that the body is gunzipped before parsing (Content-Encoding: gzip; Content-Type names the decompressed JSON), that the key is read from "Authorization: Bearer <key>", that the body is parsed as the spec's JSON object (UTF-8), that no header the provider does not send is required, that Content-Type is compared by media type only, and that UpdateDate is read as UTC. The answer bodies below say which.`,
      cases: casesOf(),
    });
  } else if (status >= 500) {
    groups.push({
      cause: 'server-error',
      summary: `every valid notification was answered ${status} (${valid.length} of ${valid.length})`,
      fixFirst: 'The receiver fails on every notification: read its logs for the error of the first one.',
      cases: casesOf(),
    });
  }
  // What an experiment found comes first. It replaces the catalogue's cause only where it refutes it
  // (a 401 to every notification that a lower-case "authorization" turns into 200 is no wrong
  // --api-key); elsewhere the catalogue's cause stands, confirmed and made precise.
  const experiment = found(`HTTP ${status}`);
  return groups
    .filter((g) => g.cases.length > 0)
    .map((g) => {
      if (!experiment?.finding) return g;
      const summary = `${g.summary}; found by experiment: ${experiment.finding}`;
      if (g.cause === 'api-key' && experiment.kind === 'header-name-case')
        return { ...g, cause: experiment.kind, summary, fixFirst: experiment.fix ?? g.fixFirst };
      return { ...g, summary, fixFirst: experiment.fix ? `${experiment.fix} ${g.fixFirst}` : g.fixFirst };
    });
}
