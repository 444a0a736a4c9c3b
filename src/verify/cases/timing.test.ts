/**
 * answers-within-timeout's judgement on given figures: the burst's answers are reported apart and
 * never warned on, and a slow p95 is not judged when the kit's own event loop stalled about as long
 * (a loaded machine cannot be made on demand, so the attempts and the stall are given here).
 */
import { describe, expect, it } from 'vitest';
import type { Attempt, NotificationRecord } from '../../delivery/index.js';
import type { MeasuredAttempt, VerifyContext } from '../context.js';
import type { ResolvedOptions } from '../options.js';
import { answersWithinTimeout } from './timing.js';

const record = {
  url: 'http://r.example/hook',
  bookingStatus: 'Issued',
  bookingId: 1234567,
  filename: 'f.json',
  gz: Buffer.alloc(10),
  authorization: 'Bearer k',
} as unknown as NotificationRecord;
const attempt = (durationMs: number, batchAt?: string): Attempt =>
  ({
    outcome: 'http_status',
    statusCode: 200,
    durationMs,
    message: 'receiver answered 200',
    batchAt,
  }) as Attempt;
/** The burst's attempts are those of its batch (`batchAt`); the case's single sends are judged. */
const measured = (caseId: string, ms: number[], batchAt?: string): MeasuredAttempt[] =>
  ms.map((d) => ({ caseId, record, attempt: attempt(d, batchAt) }));

async function judge(list: MeasuredAttempt[], kitLagMs: number) {
  const ctx = { measured: list, held: [], kitLagMs: () => kitLagMs } as unknown as VerifyContext;
  const options = { apiKey: 'k', responseTimeoutMs: 30_000 } as ResolvedOptions;
  return answersWithinTimeout.run({ ctx, options, probe: undefined });
}

describe('answers-within-timeout', () => {
  it('judges single requests only: a slow burst of the kit is reported apart, never warned on', async () => {
    const outcome = await judge(
      [
        ...measured('acknowledges-issue', Array(20).fill(40)),
        ...measured('survives-batch-burst', Array(50).fill(7_000), '2026-04-27T10:55:00.000Z'),
      ],
      5,
    );
    expect(outcome.status).toBe('passed');
    expect(outcome.reason).toMatch(
      /per request, one at a time: 20 answers: p50 40 ms.*the burst apart: 50 answers: p50 7000 ms/,
    );
    expect(outcome.timing).toMatchObject({ answers: 20, p95Ms: 40, burst: { answers: 50, p95Ms: 7_000 } });
  });

  it('warns on a p95 of single requests over 5 s, listing the slowest, when the kit itself was not stalled', async () => {
    const outcome = await judge(measured('acknowledges-issue', [...Array(10).fill(6_000), 9_000]), 20);
    expect(outcome.status).toBe('warned');
    expect(outcome.reason).toMatch(/the p95 of single requests is over 5 s .*the slowest are listed/);
    expect(outcome.evidence![0]!.received).toMatch(/^HTTP 200 after 9000 ms/);
  });

  it('does not judge the same figures when the kit’s own event loop stalled about as long', async () => {
    const outcome = await judge(measured('acknowledges-issue', Array(10).fill(6_000)), 4_000);
    expect(outcome.status).toBe('passed');
    expect(outcome.reason).toMatch(
      /not judged: the kit's own process was stalled up to 4000 ms \(a loaded machine\)/,
    );
  });
});
