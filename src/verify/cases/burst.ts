/**
 * survives-batch-burst: the notifications one minute-55 batch redelivers at once after an outage.
 * How many the provider sends at once is not published (spec "Limits" gives only the schedule): the
 * kit sends --burst-concurrency (default 50) and says so in the reason.
 */
import { CANCELLED } from '../../delivery/attempt/deadline.js';
import { acknowledged, evidenceOf } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, passed } from './case.js';
import { percentile } from './timing.js';

const EVIDENCE_SHOWN = 5;

export const survivesBatchBurst: CaseDefinition = {
  id: 'survives-batch-burst',
  title: CASE_TITLES['survives-batch-burst'],
  rule: 'spec "Limits": redelivery batches run at minute 55 of every hour and re-attempt every pending notification; after an outage they all arrive in the same minute (how many at once is not published; docs/spec-rules.md#limits)',
  fix: 'Size the receiver for a burst: as many concurrent requests as the batch sent (connection backlog, worker pool, database connections), each answered within the response timeout; queue work instead of doing it before answering.',
  async run({ ctx, options }) {
    const size = options.burstConcurrency;
    const emit = Array.from({ length: size }, () => ctx.issue().emit).flat();
    // The outage: every first attempt fails, so all are pending when the batch comes.
    const pending = await ctx.sendDuringOutage(emit);
    const at = await ctx.nextBatch();
    const records = pending.map((r) => ctx.record(r.id));
    const refused = records.filter((r) => !acknowledged(r.attempts.at(-1)));
    const times = records.map((r) => r.attempts.at(-1)?.durationMs ?? 0).sort((a, b) => a - b);
    const figures = `p50 ${Math.round(percentile(times, 50))} ms, p95 ${Math.round(percentile(times, 95))} ms, max ${Math.round(times.at(-1) ?? 0)} ms, the kit's own ${size} connections${options.receiver.startsWith('https:') ? ' and TLS handshakes' : ''} included`;
    const assumption = `${size} at once (--burst-concurrency; the provider does not publish how many its batch sends at once)`;
    if (refused.length === 0)
      return passed(
        `all ${records.length} redeliveries of the batch at ${at} answered 200: ${assumption}; ${figures}`,
      );
    const kinds = new Map<string, number>();
    for (const r of refused) {
      const a = r.attempts.at(-1);
      const key = a?.outcome === 'http_status' ? `HTTP ${a.statusCode}` : (a?.outcome ?? 'no attempt');
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    const summary = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
    // Answers with a status are the receiver's decision, not a lack of capacity (except 429 and 503).
    const capacity = refused.some((r) => {
      const a = r.attempts.at(-1);
      return a?.outcome !== 'http_status' || a.statusCode === 429 || a.statusCode === 503;
    });
    const slowAccept = refused.some((r) => {
      const a = r.attempts.at(-1);
      // Cancelled by the kit while unanswered (decision 0239): as a timeout would have shown.
      const cut = a?.outcome === 'interrupted' && a.message.startsWith(CANCELLED);
      return cut || a?.outcome === 'timeout' || a?.outcome === 'reset' || /ETIMEDOUT/.test(a?.message ?? '');
    });
    const servedSome = records.length > refused.length || ctx.measured.some((m) => acknowledged(m.attempt));
    const cause = capacity
      ? slowAccept && servedSome
        ? `the receiver answers requests one at a time but not ${size} at once: it serves fewer connections at once than a batch opens (a single-threaded server, a small worker pool or listen backlog), so the rest waited past the response timeout or were cut. A concurrency finding, not a crash: it kept answering`
        : 'timeouts, resets, refused connections, 429 or 503 under a burst point at capacity: see the fix'
      : `every refusal is an answer (${summary}), not a lack of capacity: the receiver decided to refuse these notifications; see the answers below (e.g. a 413 is a request-size limit, a 400 or 422 a body it does not take)`;
    return failed(
      `${refused.length} of ${records.length} redeliveries of the batch at ${at} were not acknowledged (${summary}); ${cause}. Each is retried in the next batch, and after 4 redeliveries dropped (${assumption})`,
      refused.slice(0, EVIDENCE_SHOWN).map((r) => evidenceOf(r, options.apiKey)),
    );
  },
};
