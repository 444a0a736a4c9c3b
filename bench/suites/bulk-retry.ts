/**
 * A bulk retry of 3,000 exhausted notifications beside the health probe (issue 43 §1, §2; decision
 * 0200). The emulator runs in a process of its own (bench/lib/emulator-host.ts: 9,000 settled
 * notifications added the fast way the scale tests use, a third of them exhausted; its own event
 * loop watched), the receiver of the resends in another (answering 200), health is asked every
 * 50 ms from a third (bench/lib/health-probe.mjs), and this process makes the calls. Two windows:
 * the call (`POST /__admin/notifications/resend-failed`), then the resends' deliveries until the
 * receiver had them all. Then a second call, which must resend nothing.
 */
import { healthProbe, startHosted } from '../lib/hosted.js';
import { json } from '../lib/http.js';
import { startReceiver } from '../lib/receiver.js';
import { envNumber, fmt, percentile, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';
import { type ProbedRun, probedFigures } from './admin-scale.js';

const PROBE_EVERY_MS = 50;
const HEALTH_P99_TARGET_MS = 100;
const HOLD_TARGET_MS = 50;
const CLOCK_START = '2026-04-27T10:00:00Z';

interface Answer {
  resent: unknown[];
  skipped?: unknown[];
}

const suite: BenchSuite = {
  name: 'bulk-retry',
  title: 'Bulk retry of 3,000 exhausted notifications beside the health probe',
  async run(log) {
    const exhausted = envNumber('BENCH_BULK_RETRY_NOTIFICATIONS', 3_000, 300);
    const receiver = await startReceiver();
    // Record i is exhausted when i % 3 === 2 (test/helpers/many-notifications.ts).
    const emu = await startHosted(
      { port: 0, clock: 'manual', clockStart: CLOCK_START, logLevel: 'silent', allowHttp: true, seed: 1 },
      { count: exhausted * 3, startMs: Date.parse(CLOCK_START) - 3 * 3_600_000, credentialId: 'main' },
    );
    try {
      await json(`${emu.url}/__admin/credentials`, {
        body: { id: 'main', apiKey: 'k', url: `${receiver.url}/hook` },
      });
      const body = { credentialId: 'main', since: '2000-01-01T00:00:00Z' };
      const runs: ProbedRun[] = [];
      let first: Answer | undefined;
      for (const what of ['The call', 'Its resends delivered'] as const) {
        const probe = healthProbe(emu.url, PROBE_EVERY_MS);
        await new Promise((r) => setTimeout(r, 200));
        const t0 = performance.now();
        const { loop } = await emu.watch(async () => {
          if (what === 'The call')
            first = await json<Answer>(`${emu.url}/__admin/notifications/resend-failed`, {
              body,
              timeoutMs: 600_000,
            });
          else {
            const arrived = await receiver.wait(first!.resent.length, 300_000);
            if (!arrived.reached) throw new Error(`only ${arrived.count} resends arrived`);
          }
        });
        const seconds = (performance.now() - t0) / 1000;
        const { latencies: health, failed: healthFailed } = await probe.stop();
        const run = { what, seconds, health, healthFailed, loop };
        log(`${what}: ${probedFigures(run)}`);
        runs.push(run);
      }
      const second = await json<Answer>(`${emu.url}/__admin/notifications/resend-failed`, { body });
      const verdicts: Verdict[] = [
        ...runs.flatMap((r) => [
          {
            target: `${r.what} (${fmt(first!.resent.length)} resent): health p99 ≤ ${HEALTH_P99_TARGET_MS} ms`,
            figure: probedFigures(r),
            met: percentile(r.health, 99) <= HEALTH_P99_TARGET_MS,
          },
          {
            target: `${r.what}: the emulator's event loop held ≤ ${HOLD_TARGET_MS} ms at a time`,
            figure: `longest ${fmt(r.loop.longestHoldMs)} ms (the lesser of wall and CPU between two ticks of a 5 ms timer)`,
            met: r.loop.longestHoldMs <= HOLD_TARGET_MS,
          },
        ]),
        {
          target: 'a second call resends nothing',
          figure: `${second.resent.length} resent, ${second.skipped?.length ?? 'no'} skipped`,
          met: second.resent.length === 0,
        },
      ];
      return [
        `${fmt(exhausted * 3)} settled notifications of one credential, ${fmt(exhausted)} of them exhausted, in an`,
        'emulator of its own process (manual clock); `POST /__admin/notifications/resend-failed` from this',
        'process; the resends go to a loopback receiver in another, answering 200; `GET /__admin/health`',
        `every ${PROBE_EVERY_MS} ms over a fresh connection from a process of its own. The event-loop figures`,
        "are the emulator's own (bench/lib/emulator-host.ts). One run.",
        '',
        verdictTable(verdicts),
      ].join('\n');
    } finally {
      await emu.stop();
      await receiver.stop();
    }
  },
};
export default suite;
