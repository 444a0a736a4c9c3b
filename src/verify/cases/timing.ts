/** answers-within-timeout: every answer of the whole run, measured against the response timeout. */
import { HELD_MS, type MeasuredAttempt } from '../context.js';
import { evidenceOf } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, passed, warned } from './case.js';

/** Above this p95 the receiver is warned: slow enough that load or a cold start could pass 30 s. */
export const SLOW_P95_MS = 5_000;
const EVIDENCE_SHOWN = 5;
/** Outcomes that are an answer (or the lack of one in time) from the receiver. */
const ANSWERED = new Set(['http_status', 'timeout', 'reset', 'invalid_response']);

/** The `p`-th percentile (nearest rank) of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

/** The case whose attempts are the kit's own burst (figures apart: the kit's work dominates them). */
const BURST_CASE = 'survives-batch-burst';

function figuresOf(list: readonly MeasuredAttempt[]) {
  const sorted = list.map((m) => m.attempt.durationMs).sort((a, b) => a - b);
  return {
    answers: sorted.length,
    p50Ms: Math.round(percentile(sorted, 50)),
    p95Ms: Math.round(percentile(sorted, 95)),
    maxMs: Math.round(sorted.at(-1) ?? 0),
  };
}

const text = (f: ReturnType<typeof figuresOf>) =>
  `${f.answers} answers: p50 ${f.p50Ms} ms, p95 ${f.p95Ms} ms, max ${f.maxMs} ms`;

export const answersWithinTimeout: CaseDefinition = {
  id: 'answers-within-timeout',
  title: CASE_TITLES['answers-within-timeout'],
  rule: 'spec "Limits": webhook response wait 30 seconds; "Errors": no response within 30 seconds is a delivery failure and the redelivery process applies (docs/spec-rules.md#limits)',
  fix: 'Answer as soon as the notification is stored (well under a second) and do the rest asynchronously; check what blocks the slow requests listed (locks, a downstream call, a cold start).',
  async run({ ctx, options }) {
    let answers = ctx.measured.filter((m) => ANSWERED.has(m.attempt.outcome));
    if (answers.length === 0) {
      // Run alone (--only): measure one delivery of its own.
      await ctx.send(ctx.issue().emit);
      ctx.finish();
      answers = ctx.measured.filter((m) => ANSWERED.has(m.attempt.outcome));
    }
    if (answers.length === 0)
      return failed('no delivery of the run reached the receiver, so no answer time could be measured');
    // One request at a time: the receiver's own latency. The burst: the kit's connections and TLS
    // handshakes share the machine with it, so its figures are reported, never judged for speed.
    const inBurst = (m: MeasuredAttempt) => m.caseId === BURST_CASE && Boolean(m.attempt.batchAt);
    const single = answers.filter((m) => !inBurst(m));
    const burst = answers.filter(inBurst);
    const perRequest = figuresOf(single.length ? single : answers);
    const timing = {
      ...perRequest,
      ...(burst.length && single.length ? { burst: figuresOf(burst) } : {}),
      kitLagMs: ctx.kitLagMs(),
    };
    const figures = `per request, one at a time: ${text(perRequest)}${timing.burst ? `; the burst apart: ${text(timing.burst)}` : ''}`;
    const late = answers.filter((m) => m.attempt.outcome === 'timeout');
    const show = (list: MeasuredAttempt[]) =>
      list.slice(0, EVIDENCE_SHOWN).map((m) => ({
        ...evidenceOf(m.record, options.apiKey, m.attempt),
        sent: `${evidenceOf(m.record, options.apiKey, m.attempt).sent} [case ${m.caseId}]`,
      }));
    if (late.length === 0 && ctx.held.length > 0) {
      // A delivery cut before the response timeout (decision 0239) says nothing about the 30 s bar.
      const cases = [...new Set(ctx.held.map((h) => h.caseId))].join(', ');
      return {
        status: 'skipped',
        reason: `not judged: deliveries got no answer for ${HELD_MS} ms and were cancelled (in ${cases}), so whether they would have been answered within the ${options.responseTimeoutMs} ms response timeout is not known; give --budget to wait it out (${figures})`,
        timing,
      };
    }
    if (late.length > 0) {
      const cases = [...new Set(late.map((m) => m.caseId))].join(', ');
      return {
        ...failed(
          `${late.length} of ${answers.length} deliveries got no answer within the ${options.responseTimeoutMs} ms response timeout (in ${cases}); each counts as failed and is redelivered (${figures})`,
          show(late),
        ),
        timing,
      };
    }
    if (perRequest.p95Ms > SLOW_P95_MS) {
      const slow = [...single].sort((a, b) => b.attempt.durationMs - a.attempt.durationMs);
      // The kit's own process stalled about as long: the figures measure this machine, not the receiver.
      if (timing.kitLagMs * 2 >= perRequest.p95Ms)
        return {
          ...passed(
            `every answer within the ${options.responseTimeoutMs} ms response timeout (${figures}); the p95 over ${SLOW_P95_MS / 1000} s is not judged: the kit's own process was stalled up to ${timing.kitLagMs} ms (a loaded machine), so the figures measure the machine, not the receiver`,
          ),
          timing,
        };
      return {
        ...warned(
          `every answer came within ${options.responseTimeoutMs} ms, but the p95 of single requests is over ${SLOW_P95_MS / 1000} s (${figures}): under production load that gets close to the limit; the slowest are listed`,
          show(slow),
        ),
        timing,
      };
    }
    return {
      ...passed(`every answer within the ${options.responseTimeoutMs} ms response timeout (${figures})`),
      timing,
    };
  },
};
