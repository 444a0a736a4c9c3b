/**
 * A bulk retry of 3,000 exhausted notifications beside the health probe (issue 43 §1, §2; decision
 * 0200). The emulator runs in this process (dist/, as `npm run bench` builds it; manual clock, the
 * bench receiver in a process of its own) so the event loop can be watched from inside: a `setImmediate` chain reads
 * `process.cpuUsage()` at every turn, and the most CPU spent between two turns is the longest hold, a
 * figure that a loaded machine's scheduling does not inflate the way wall time is. A child process asks
 * `GET /__admin/health` every 10 ms over fresh connections (wall latency, stated, not gated: on a shared
 * 2-core machine it mostly measures the scheduler). Figures: the hold, the loop turns, health during
 * the call, and what a second call resent (0: idempotent).
 */
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopAll, workDir } from '../lib/proc.js';
import { startReceiver } from '../lib/receiver.js';
import { envNumber, fmt, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const HOLD_TARGET_MS = 50;

/** The health prober, a child process: latencies of GET every 10 ms until told to stop. */
const PROBE = `import http from 'node:http';
const lat = [];
const timer = setInterval(() => {
  const t0 = performance.now();
  http.get(process.argv[2], { agent: false }, (res) => { res.resume(); res.on('end', () => lat.push(performance.now() - t0)); }).on('error', () => {});
}, 10);
process.on('message', () => { clearInterval(timer); setTimeout(() => { process.send(lat); process.exit(0); }, 200); });
`;

/** The most CPU (utime + stime, ms) spent between two turns of the event loop, and the turns counted. */
function watchLoop(): { stop: () => { maxHoldMs: number; turns: number } } {
  let last = process.cpuUsage();
  let maxHoldMs = 0;
  let turns = 0;
  let on = true;
  const turn = () => {
    const now = process.cpuUsage();
    maxHoldMs = Math.max(maxHoldMs, (now.user - last.user + now.system - last.system) / 1000);
    last = now;
    turns++;
    if (on) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop: () => {
      on = false;
      return { maxHoldMs, turns };
    },
  };
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;

const suite: BenchSuite = {
  name: 'bulk-retry',
  title: 'Bulk retry of 3,000 exhausted notifications beside the health probe',
  async run(log) {
    const count = envNumber('BENCH_BULK_RETRY_NOTIFICATIONS', 3_000, 300);
    const dist = new URL('../../dist/', import.meta.url);
    const { startServer } = (await import(
      new URL('server.js', dist).href
    )) as typeof import('../../src/server.js');
    // The receiver is a process of its own: its work is not the emulator's loop.
    const receiver = await startReceiver();
    const server = await startServer({
      port: 0,
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
      logLevel: 'silent',
      allowHttp: true,
      seed: 1,
    });
    const post = async <T>(path: string, body: unknown): Promise<T> => {
      const res = await fetch(`${server.url}/__admin${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status >= 300) throw new Error(`${path}: HTTP ${res.status} ${await res.text()}`);
      return (await res.json()) as T;
    };
    const settle = () => fetch(`${server.url}/__admin/notifications?wait=settled&limit=1&timeoutMs=300000`);
    try {
      await post('/credentials', { id: 'bench', apiKey: 'k', url: receiver.url });
      await post('/outages', { attempts: count * 5 });
      for (let i = 0; i < count; i++) await post('/events', { type: 'Issue' });
      for (let i = 0; i < 4; i++) await post('/clock/advance', { to: 'next-batch' });
      await settle();
      log(`${fmt(count)} notifications exhausted; bulk retry`);

      const probeFile = join(workDir('bulk-retry'), 'probe.mjs');
      writeFileSync(probeFile, PROBE);
      const probe = fork(probeFile, [`${server.url}/__admin/health`]);
      await new Promise((r) => setTimeout(r, 300));
      const body = { credentialId: 'bench', since: '2000-01-01T00:00:00Z' };
      const loop = watchLoop();
      const t0 = performance.now();
      const first = await post<{ resent: unknown[] }>('/notifications/resend-failed', body);
      const callMs = performance.now() - t0;
      const { maxHoldMs, turns } = loop.stop();
      probe.send('stop');
      const health = ((await new Promise((r) => probe.once('message', r))) as number[]).sort((a, b) => a - b);
      await settle();
      const second = await post<{ resent: unknown[]; skipped: unknown[] }>(
        '/notifications/resend-failed',
        body,
      );

      const verdicts: Verdict[] = [
        {
          target: `the event loop held ≤ ${HOLD_TARGET_MS} ms of CPU at a time during the bulk retry`,
          figure: `longest ${fmt(maxHoldMs, 1)} ms of CPU between two turns; ${turns} turns in the ${fmt(callMs)} ms call (${fmt(first.resent.length)} resent)`,
          met: maxHoldMs <= HOLD_TARGET_MS,
        },
        {
          target: 'a second call resends nothing',
          figure: `${second.resent.length} resent, ${second.skipped?.length ?? 'no'} skipped`,
          met: second.resent.length === 0,
        },
      ];
      return [
        `${fmt(count)} notifications of one credential exhausted by a simulated outage, then`,
        '`POST /__admin/notifications/resend-failed`; the emulator runs in the bench process (see the',
        "suite's comment). Health from a child process every 10 ms during the call (wall, stated):",
        `p50 ${fmt(pct(health, 50), 1)} ms, p99 ${fmt(pct(health, 99), 1)} ms, longest ${fmt(health.at(-1) ?? 0, 1)} ms (${health.length} answers).`,
        '',
        verdictTable(verdicts),
      ].join('\n');
    } finally {
      await server.close();
      await receiver.stop();
      await stopAll();
    }
  },
};
export default suite;
