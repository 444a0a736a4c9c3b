import { monitorEventLoopDelay } from 'node:perf_hooks';
import { percentile } from '../../bench/lib/stats.js';

/** What a watch saw: the event loop's delay (p99, max) and health's latency seen by a client (p99, max), all in ms. */
export interface LoopFigures {
  loopP99Ms: number;
  loopMaxMs: number;
  healthCalls: number;
  healthP99Ms: number;
  healthMaxMs: number;
}

/**
 * Watches this process's event loop (`monitorEventLoopDelay`: how late a timer ran, so how long the
 * loop was held, whatever the client's own wall time) and calls `GET <url>/__admin/health` every
 * `everyMs`, until `stop()`; for an emulator that runs in this process.
 */
export function watchLoop(url: string, everyMs = 20): { stop: () => Promise<LoopFigures> } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const latencies: number[] = [];
  const calls: Promise<void>[] = [];
  const timer = setInterval(() => {
    const t0 = performance.now();
    calls.push(
      fetch(`${url}/__admin/health`).then(async (r) => {
        await r.arrayBuffer();
        latencies.push(performance.now() - t0);
      }),
    );
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      histogram.disable();
      await Promise.all(calls);
      return {
        loopP99Ms: histogram.percentile(99) / 1e6,
        loopMaxMs: histogram.max / 1e6,
        healthCalls: latencies.length,
        healthP99Ms: percentile(latencies, 99),
        healthMaxMs: Math.max(0, ...latencies),
      };
    },
  };
}
