/**
 * A provider that fails: a transient failure (503, then a dropped connection), a provider that never
 * answers, an answer cut short. The spec publishes no retry policy; these are the kit's rules
 * (docs/verify-client.md): retry a transient failure a few times with a pause, never in a storm;
 * give every call a timeout; never take a broken answer for a token.
 */
import {
  type ClientCase,
  count,
  fail,
  killed,
  pass,
  pauses,
  printedTokens,
  type Seen,
  said,
  seconds,
  type Verdict,
  warn,
} from './case.js';

/**
 * How long the provider answers 503 from the first call on. Long enough that an SDK retrying
 * without a pause makes many calls in it even on a busy machine, short enough for a backoff of
 * 250 ms, 500 ms, 1 s to see it end.
 */
export const TRANSIENT_WINDOW_MS = 1500;
/**
 * A retry sooner than this after a failure had no pause. Sound on any machine: a call is journaled
 * before its answer leaves, so the next call of a client that paused P is journaled at least P later.
 */
export const MIN_RETRY_PAUSE_MS = 100;
/** More calls than this for the 503 window and one dropped connection is a storm, pauses or not. */
export const MAX_TRANSIENT_CALLS = 10;
/** More calls than this for answers cut short is a loop. */
export const MAX_MALFORMED_CALLS = 3;
/** Every call of the case (a rule with a count stays until it is used up). */
const EVERY_CALL = 1_000_000;

const RULE = 'docs/verify-client.md "Failures the provider may have" (the spec publishes no retry policy)';

export const recoversFromTransientFailures: ClientCase = {
  id: 'recovers-from-transient-failures',
  rule: RULE,
  fix: 'Retry 5xx answers and dropped connections a few times (3 to 5), pausing longer each time (e.g. 250 ms, 500 ms, 1 s), then report the error.',
  stage: () => ({
    faults: [
      { kind: 'status', status: 503, count: EVERY_CALL, forMs: TRANSIENT_WINDOW_MS },
      { kind: 'drop', count: 1 },
    ],
  }),
  ask: { tokens: 1, intervalMs: 0 },
  setting: `calls are answered 503 for ${seconds(TRANSIENT_WINDOW_MS)} from the first, then one has its connection dropped, later calls succeed`,
  judge(seen) {
    const { calls, run } = seen;
    const gaps = pauses(calls);
    const shortest = gaps.length ? Math.min(...gaps) : undefined;
    if (shortest !== undefined && shortest < MIN_RETRY_PAUSE_MS)
      return fail(
        `retry storm on 503: retried after ${shortest} ms without a pause (${count(calls.length, 'call')} in ${seconds(calls.at(-1)!.atMs - calls[0]!.atMs)})`,
      );
    if (calls.length > MAX_TRANSIENT_CALLS)
      return fail(
        `retry storm on 503: ${calls.length} calls in ${seconds(calls.at(-1)!.atMs - calls[0]!.atMs)} (at most ${MAX_TRANSIENT_CALLS} expected)`,
      );
    const paused = gaps.length ? `, pauses ${gaps.map((g) => `${g} ms`).join(', ')}` : '';
    if (run.killedAfterMs === undefined && run.exitCode !== 0) {
      if (calls.length <= 1)
        return warn(
          `gives up at once: reported the first 503 as an error without a retry ${said(run)}`,
          'A single 503 or dropped connection is transient: retry it a few times with a pause before reporting it.',
        );
      return pass(`reported the error after ${count(calls.length, 'call')}${paused}: ${said(run)}`);
    }
    const printed = printedTokens(seen);
    if (!Array.isArray(printed)) return printed;
    return pass(`recovered after ${count(calls.length, 'call')}${paused}`);
  },
};

export const timesOutOnHangingProvider: ClientCase = {
  id: 'times-out-on-hanging-provider',
  rule: RULE,
  fix: 'Give every GetAccessToken call a timeout (e.g. 10 s) and report it when it fires.',
  hangs: true,
  stage: () => ({ hang: true }),
  ask: { tokens: 1, intervalMs: 0 },
  setting: 'no call is ever answered (a hanging provider; the WSDL still is)',
  judge(seen) {
    const { run, stage, boundMs } = seen;
    const made = stage.heldCalls();
    if (run.killedAfterMs !== undefined)
      return fail(
        `no timeout: still waiting after ${seconds(boundMs)} for a provider that never answers (${count(made, 'call')} made); the harness was stopped`,
      );
    if (made === 0) return fail(`made no GetAccessToken call ${said(run)}`);
    if (run.exitCode === 0)
      return fail(
        `exited 0 though no answer came${run.stdout.length ? `, printing "${run.stdout[0]!.slice(0, 80)}"` : ''}`,
      );
    if (!said(run))
      return warn(
        `ended after ${seconds(run.durationMs)} with exit ${run.exitCode ?? run.signal} but printed nothing`,
        'Say what happened when the timeout fires (e.g. "GetAccessToken: no answer within 10 s").',
      );
    return pass(`gave up after ${seconds(run.durationMs)} and ${count(made, 'call')}: ${said(run)}`);
  },
};

export const reportsMalformedAnswer: ClientCase = {
  id: 'reports-malformed-answer',
  rule: RULE,
  fix: 'Parse the answer strictly (complete JSON, XML or SOAP envelope) and report a broken one as an error; retry it at most once or twice.',
  stage: () => ({ faults: [{ kind: 'malformed', count: EVERY_CALL }] }),
  ask: { tokens: 1, intervalMs: 0 },
  setting: "every answer is cut short mid-body (HTTP 200, the variant's Content-Type)",
  judge(seen) {
    const { run, calls } = seen;
    const verdict = brokenAnswerVerdict(seen);
    if (verdict) return verdict;
    if (calls.length > MAX_MALFORMED_CALLS)
      return fail(
        `calls in a loop: ${calls.length} calls for answers cut short (at most ${MAX_MALFORMED_CALLS})`,
      );
    if (!said(run))
      return warn(
        `exited ${run.exitCode ?? run.signal} but printed nothing`,
        'Say what was wrong with the answer.',
      );
    return pass(`reported the broken answer after ${count(calls.length, 'call')}: ${said(run)}`);
  },
};

function brokenAnswerVerdict(seen: Seen): Verdict | undefined {
  const { run } = seen;
  if (run.killedAfterMs !== undefined) return killed(seen);
  if (run.exitCode === 0)
    return fail(
      run.stdout.length
        ? `took an answer cut short for a token: printed "${run.stdout[0]!.slice(0, 80)}" and exited 0`
        : 'exited 0 without a token or an error though every answer was cut short',
    );
  return undefined;
}
