/**
 * `generate`: notifications generated per second on one core — what `reportbo-emulator generate`
 * prints (its NDJSON lines, in process, and the CLI itself timed from spawn to exit), the generator
 * alone, and through the reservation store (which the server uses: it also validates every body
 * with the strict schema and gzips it) — and the median gzip size of a typical booking (2
 * passengers, 3 segments). Target: `generate` ≥ 5,000 bodies/s (decision 0050).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { generateNotification } from '../../dist/generate/index.js';
import { notificationLines } from '../../dist/generate/ndjson.js';
import { ReservationStore } from '../../dist/reservations/index.js';
import { ROOT } from '../lib/proc.js';
import { envNumber, judge } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';
import { fmt, median } from '../types.js';

/** The bar (decision 0050); BENCH_GENERATE_TARGET moves it (test/bench-bars.test.ts sets one no run meets). */
const TARGET_PER_SECOND = Number(process.env.BENCH_GENERATE_TARGET || 5_000);
const CLI_COUNT = envNumber('BENCH_GENERATE_CLI_COUNT', 20_000, 1_000);
const ROUND_MS = envNumber('BENCH_GENERATE_ROUND_MS', 2_000, 200);
const ROUNDS = envNumber('BENCH_GENERATE_ROUNDS', 5, 1);
const SIZE_SAMPLES = envNumber('BENCH_GENERATE_SIZE_SAMPLES', 1_000, 50);
const TYPICAL = { pax: 2, segments: 3 } as const;
const AT = Date.parse('2026-04-27T10:00:00Z');

/** Runs `fn(i)` for ROUND_MS and answers calls per second. */
function rate(fn: (i: number) => void, offset: number): number {
  const started = performance.now();
  let n = 0;
  while (performance.now() - started < ROUND_MS) {
    for (let k = 0; k < 50; k++) fn(offset + n++);
  }
  return n / ((performance.now() - started) / 1000);
}

const suite: BenchSuite = {
  name: 'generate',
  title: 'Notification generator',
  async run(log) {
    // Warm-up: loads faker and lets the JIT settle.
    rate((i) => generateNotification({ event: 'Issue', seed: i, at: AT, shape: TYPICAL }), 0);
    const typical: number[] = [];
    const anyShape: number[] = [];
    const store: number[] = [];
    const lines: number[] = [];
    const cli: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      // What `generate` prints: an endless run of the CLI's line generator, timed like the others.
      const it = notificationLines({
        event: 'Issue',
        count: Number.MAX_SAFE_INTEGER,
        seed: r,
        atMs: AT,
        exchangeNotifies: 'both',
        pretty: false,
      });
      lines.push(
        rate(() => {
          if (it.next().done) throw new Error('generate ended early');
        }, 0),
      );
      const t0 = performance.now();
      const child = spawnSync(
        process.execPath,
        [
          join(ROOT, 'bin', 'reportbo-emulator.js'),
          'generate',
          '--count',
          String(CLI_COUNT),
          '--seed',
          String(r),
        ],
        { stdio: ['ignore', 'ignore', 'pipe'] },
      );
      if (child.status !== 0) throw new Error(`generate exited ${child.status}: ${child.stderr}`);
      cli.push(CLI_COUNT / ((performance.now() - t0) / 1000));
      typical.push(
        rate((i) => generateNotification({ event: 'Issue', seed: i, at: AT, shape: TYPICAL }), r * 1e6),
      );
      anyShape.push(rate((i) => generateNotification({ event: 'Issue', seed: i, at: AT }), r * 1e6));
      const s = new ReservationStore({
        clock: { now: () => new Date(AT) },
        seed: r,
        exchangeNotifies: 'both',
      });
      store.push(rate(() => s.apply({ type: 'Issue' }), 0));
      log(
        `round ${r + 1}: generate lines ${fmt(lines[r]!)}/s, CLI ${fmt(cli[r]!)}/s, typical ${fmt(typical[r]!)}/s, any shape ${fmt(anyShape[r]!)}/s, store ${fmt(store[r]!)}/s`,
      );
    }
    const gz: number[] = [];
    const raw: number[] = [];
    for (let seed = 0; seed < SIZE_SAMPLES; seed++) {
      const json = JSON.stringify(
        generateNotification({ event: 'Issue', seed, at: AT, shape: TYPICAL }).target,
      );
      raw.push(Buffer.byteLength(json));
      gz.push(gzipSync(json).length);
    }
    const met = judge(`generate ≥ ${fmt(TARGET_PER_SECOND)} bodies/s`, median(lines) >= TARGET_PER_SECOND);
    const verdict = met ? '**met**' : '**missed**';
    return [
      `One process, one core, ${ROUNDS} rounds of ${ROUND_MS / 1000} s each; medians. The CLI row spawns`,
      `\`reportbo-emulator generate --count ${fmt(CLI_COUNT)}\` (Issue) and times it to exit, Node start included.`,
      `Target: \`generate\` ≥ ${fmt(TARGET_PER_SECOND)} bodies/s on one core — ${fmt(median(lines))}/s: ${verdict}.`,
      '',
      '| Measure | Median | Rounds |',
      '|---|---|---|',
      `| **\`generate\` NDJSON lines/s** (Issue, any shape: what the CLI prints, no store) | **${fmt(median(lines))}** | ${lines.map((v) => fmt(v)).join(', ')} |`,
      `| \`generate --count ${fmt(CLI_COUNT)}\` CLI, bodies/s spawn → exit | ${fmt(median(cli))} | ${cli.map((v) => fmt(v)).join(', ')} |`,
      `| Issue bodies/s, typical booking (2 pax, 3 segments), \`generateNotification\` | ${fmt(median(typical))} | ${typical.map((v) => fmt(v)).join(', ')} |`,
      `| Issue bodies/s, any shape (1–9 pax, 1–8 segments) | ${fmt(median(anyShape))} | ${anyShape.map((v) => fmt(v)).join(', ')} |`,
      `| Issue events/s through \`ReservationStore.apply\` (the server's path: strict schema check and gzip included) | ${fmt(median(store))} | ${store.map((v) => fmt(v)).join(', ')} |`,
      `| JSON size of a typical booking, bytes (${fmt(SIZE_SAMPLES)} seeds) | ${fmt(median(raw))} | |`,
      `| gzip size of a typical booking, bytes (${fmt(SIZE_SAMPLES)} seeds) | ${fmt(median(gz))} | |`,
    ].join('\n');
  },
};

export default suite;
