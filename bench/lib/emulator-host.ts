/**
 * The emulator (dist/, as `npm run bench` builds it) in a process of its own, watching its own event
 * loop for the admin-scale and bulk-retry suites. Usage, forked with IPC:
 * `node --import tsx bench/lib/emulator-host.ts '<json>'` where the JSON is
 * `{ input: <startServer input>, fill?: { count, startMs, resendEvery?, credentialId? } }`; `fill`
 * adds settled notifications the fast way the scale tests use (test/helpers/many-notifications.ts),
 * so 100,000 take seconds rather than the hour their deliveries would.
 *
 * It sends `{ url }` once listening. Then `{ window: 'start' }` begins a window and `{ window: 'end' }`
 * answers what the loop did in it (HostWindow): the event-loop delay as `monitorEventLoopDelay` sees
 * it (how late a timer ran: wall time, which a loaded machine inflates), and the wall time and process
 * CPU (utime+stime) between two ticks of a 5 ms timer. A gap between ticks whose CPU is about its
 * wall time was the code holding the loop; one with little CPU was the machine not running it.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunningEmulator } from '../../src/server.js';
import { addNotifications } from '../../test/helpers/many-notifications.js';

/** What the loop did during a window; milliseconds. */
export interface HostWindow {
  /** monitorEventLoopDelay over the window (resolution 5 ms). */
  loopP99Ms: number;
  loopMaxMs: number;
  /** The longest wall time between two ticks of the 5 ms timer, and the process CPU spent in it. */
  longestGapMs: number;
  cpuInLongestGapMs: number;
  /**
   * The longest the code can have held the loop: over every pair of ticks, the lesser of the wall
   * time between them and the process CPU spent in it (every thread counts, gzip and GC helpers too,
   * so neither alone bounds the main thread's hold; each does).
   */
  longestHoldMs: number;
  /** The process CPU over the window. */
  cpuMs: number;
  wallMs: number;
}

const TICK_MS = 5;
const { input, fill } = JSON.parse(process.argv[2] ?? '{}') as {
  input: Record<string, unknown>;
  fill?: { count: number; startMs: number; resendEvery?: number; credentialId?: string };
};
const { startServer } = (await import(new URL('../../dist/server.js', import.meta.url).href)) as {
  startServer: (input: Record<string, unknown>) => Promise<RunningEmulator>;
};
const running = await startServer(input);
if (fill) addNotifications(running.emulator, fill.count, fill);

const cpuNow = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const histogram = monitorEventLoopDelay({ resolution: TICK_MS });
let window: Omit<HostWindow, 'loopP99Ms' | 'loopMaxMs' | 'cpuMs' | 'wallMs'> & { cpu0: number; t0: number };
let last = { t: performance.now(), cpu: cpuNow() };
const open = () => {
  histogram.reset();
  histogram.enable();
  last = { t: performance.now(), cpu: cpuNow() };
  window = { longestGapMs: 0, cpuInLongestGapMs: 0, longestHoldMs: 0, cpu0: last.cpu, t0: last.t };
};
open();
setInterval(() => {
  const now = { t: performance.now(), cpu: cpuNow() };
  const gap = now.t - last.t;
  const cpu = now.cpu - last.cpu;
  if (gap > window.longestGapMs) {
    window.longestGapMs = gap;
    window.cpuInLongestGapMs = cpu;
  }
  window.longestHoldMs = Math.max(window.longestHoldMs, Math.min(gap, cpu));
  last = now;
}, TICK_MS);

process.on('message', (m: { window?: 'start' | 'end'; stop?: true }) => {
  if (m.window === 'start') {
    open();
    process.send?.({ window: 'started' });
  } else if (m.window === 'end') {
    histogram.disable();
    const { cpu0, t0, ...gaps } = window;
    const result: HostWindow = {
      loopP99Ms: histogram.percentile(99) / 1e6,
      loopMaxMs: histogram.max / 1e6,
      ...gaps,
      cpuMs: cpuNow() - cpu0,
      wallMs: performance.now() - t0,
    };
    process.send?.({ window: result });
  } else if (m.stop) {
    void running.close().then(() => process.exit(0));
  }
});
process.send?.({ url: running.url });
