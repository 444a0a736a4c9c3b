/** survives-batch-burst: 50 pending notifications redelivered at once by one minute-55 batch. */
import { acknowledged, evidenceOf } from '../evidence.js';
import { CASE_TITLES } from '../types.js';
import { type CaseDefinition, failed, passed } from './case.js';

/** Notifications left pending by the simulated outage. */
export const BURST_SIZE = 50;
const EVIDENCE_SHOWN = 5;

export const survivesBatchBurst: CaseDefinition = {
  id: 'survives-batch-burst',
  title: CASE_TITLES['survives-batch-burst'],
  rule: 'spec "Limits": redelivery batches run at minute 55 of every hour and re-attempt every pending notification; after an outage they all arrive in the same minute (docs/spec-rules.md#limits)',
  fix: `Size the receiver for a burst: ${BURST_SIZE} or more concurrent requests (connection backlog, worker pool, database connections), each answered within the response timeout; queue work instead of doing it before answering.`,
  async run({ ctx, options }) {
    const emit = Array.from({ length: BURST_SIZE }, () => ctx.issue().emit).flat();
    // The outage: every first attempt fails, so all are pending when the batch comes.
    const pending = await ctx.sendDuringOutage(emit);
    const at = await ctx.nextBatch();
    const records = pending.map((r) => ctx.record(r.id));
    const refused = records.filter((r) => !acknowledged(r.attempts.at(-1)));
    const slowest = Math.round(Math.max(...records.map((r) => r.attempts.at(-1)?.durationMs ?? 0)));
    if (refused.length === 0)
      return passed(
        `all ${records.length} redeliveries of the batch at ${at} answered 200 (slowest ${slowest} ms)`,
      );
    const kinds = new Map<string, number>();
    for (const r of refused) {
      const a = r.attempts.at(-1);
      const key = a?.outcome === 'http_status' ? `HTTP ${a.statusCode}` : (a?.outcome ?? 'no attempt');
      kinds.set(key, (kinds.get(key) ?? 0) + 1);
    }
    const summary = [...kinds].map(([k, n]) => `${n} ${k}`).join(', ');
    return failed(
      `${refused.length} of ${records.length} redeliveries of the batch at ${at} were not acknowledged (${summary}); each is retried in the next batch, and after 4 redeliveries dropped`,
      refused.slice(0, EVIDENCE_SHOWN).map((r) => evidenceOf(r, options.apiKey)),
    );
  },
};
