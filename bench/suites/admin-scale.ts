/**
 * Admin answers at the default retention (issue 43 §1, decision 0209): the emulator's CLI holding
 * 100,000 delivered notifications; GET /__admin/health every 50 ms from this process while each
 * answer runs (the NDJSON export, the HAR export, the list without limit), its p99 beside the
 * answer's wall time, bytes and the emulator's CPU for it (utime+stime from /proc).
 */
import http from 'node:http';
import { postIssueEvents, probeLatency, waitSettled } from '../lib/events.js';
import { request } from '../lib/http.js';
import { stopAll } from '../lib/proc.js';
import { startReceiver } from '../lib/receiver.js';
import { cpuTimeMs } from '../lib/rss.js';
import { startEmulator } from '../lib/servers.js';
import { envNumber, fmt, percentile, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const EVENT_CONCURRENCY = 16;
const PROBE_EVERY_MS = 50;
/** Issue 43 §1: health answers within 100 ms at p99 while any admin answer runs. */
const HEALTH_P99_TARGET_MS = 100;
const IDLE_PROBE_MS = 3_000;

/** GETs health every PROBE_EVERY_MS (the first at once) until stopped; answers each call's latency in ms. */
const probeHealth = (url: string) =>
  probeLatency(
    (agent) => request(`${url}/__admin/health`, { agent, timeoutMs: 600_000 }),
    PROBE_EVERY_MS,
    true,
  );

/** Reads `url` to its end, counting bytes without keeping them; answers the status and the byte count. */
function drain(url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          bytes += c.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

interface Run {
  what: string;
  seconds: number;
  bytes: number;
  cpuMs: number;
  healthP99Ms: number;
  healthMaxMs: number;
  probes: number;
}

const suite: BenchSuite = {
  name: 'admin-scale',
  title: 'Admin answers over 100,000 notifications, with health beside them',
  async run(log) {
    const count = envNumber('BENCH_EXPORT_NOTIFICATIONS', 100_000, 10_000);
    try {
      const receiver = await startReceiver();
      await receiver.answer(200);
      const emu = await startEmulator({
        args: ['--allow-http', '--clock', 'manual'],
        config: { credentials: [{ id: 'bench', apiKey: 'bench-key', url: `${receiver.url}/hook` }] },
      });
      const posted = await postIssueEvents(emu.url, count, EVENT_CONCURRENCY, (done) =>
        log(`${fmt(done)} events posted`),
      );
      if (!(await waitSettled(emu.url))) throw new Error('the attempts did not settle within 300 s');
      const idle = await new Promise<number[]>((resolve) => {
        const probe = probeHealth(emu.url);
        setTimeout(() => resolve(probe.stop()), IDLE_PROBE_MS);
      });
      const runs: Run[] = [];
      for (const [what, path] of [
        ['NDJSON export', '/__admin/notifications/export?format=ndjson'],
        ['HAR export', '/__admin/notifications/export'],
        ['List without limit (one page)', '/__admin/notifications'],
      ] as const) {
        const cpu0 = cpuTimeMs(emu.proc.pid) ?? 0;
        const probe = probeHealth(emu.url);
        const t0 = performance.now();
        const got = await drain(`${emu.url}${path}`);
        const seconds = (performance.now() - t0) / 1000;
        const latencies = await probe.stop();
        if (got.status !== 200) throw new Error(`${path} answered ${got.status}`);
        const run: Run = {
          what,
          seconds,
          bytes: got.bytes,
          cpuMs: (cpuTimeMs(emu.proc.pid) ?? 0) - cpu0,
          healthP99Ms: percentile(latencies, 99),
          healthMaxMs: Math.max(0, ...latencies),
          probes: latencies.length,
        };
        log(
          `${what}: ${fmt(run.bytes / 1e6)} MB in ${fmt(seconds, 1)} s, health p99 ${fmt(run.healthP99Ms)} ms`,
        );
        runs.push(run);
      }
      await emu.stop();
      const full = posted.ids.length >= 100_000;
      const verdicts: Verdict[] = runs.map((r) => ({
        target: `${r.what} of ${fmt(posted.ids.length)}: health p99 ≤ ${HEALTH_P99_TARGET_MS} ms`,
        figure: `${fmt(r.healthP99Ms)} ms p99, ${fmt(r.healthMaxMs)} ms max (${fmt(r.probes)} probes); ${fmt(r.bytes / 1e6)} MB in ${fmt(r.seconds, 1)} s, emulator CPU ${fmt(r.cpuMs / 1000, 1)} s`,
        met: full ? r.healthP99Ms <= HEALTH_P99_TARGET_MS : undefined,
        ...(full ? {} : { note: `quick run with ${fmt(posted.ids.length)} only` }),
      }));
      return [
        'One emulator (`--allow-http --clock manual`), one credential at a loopback receiver answering',
        `200; ${fmt(posted.ids.length)} Issue events posted ${EVENT_CONCURRENCY} at a time and settled (one`,
        'delivered attempt each). Then each answer is read to its end by this process, as fast as it',
        `comes, while \`GET /__admin/health\` is called every ${PROBE_EVERY_MS} ms on a connection of its own; the`,
        `emulator's CPU is utime+stime from /proc over the answer. Idle, health answered at p99`,
        `${fmt(percentile(idle, 99), 1)} ms (${fmt(idle.length)} probes over ${IDLE_PROBE_MS / 1000} s). One run; MB = 10⁶ bytes.`,
        '',
        verdictTable(verdicts),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

export default suite;
