/**
 * `generate`: notifications generated per second on one core (the generator alone, and through the
 * reservation store, which also validates every body with the strict schema), and the median gzip
 * size of a typical booking (2 passengers, 3 segments). Target: ≥ 5,000 notifications/s.
 */
import { gzipSync } from 'node:zlib';
import { generateNotification } from '../../dist/generate/index.js';
import { ReservationStore } from '../../dist/reservations/index.js';
import type { BenchSuite } from '../types.js';
import { fmt, median } from '../types.js';

const TARGET_PER_SECOND = 5_000;
const ROUND_MS = 2_000;
const ROUNDS = 5;
const SIZE_SAMPLES = 1_000;
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
    for (let r = 0; r < ROUNDS; r++) {
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
        `round ${r + 1}: typical ${fmt(typical[r]!)}/s, any shape ${fmt(anyShape[r]!)}/s, store ${fmt(store[r]!)}/s`,
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
    const verdict = median(typical) >= TARGET_PER_SECOND ? 'meets' : 'misses';
    return [
      `One process, one core, ${ROUNDS} rounds of ${ROUND_MS / 1000} s each; medians. Target ≥ ${fmt(TARGET_PER_SECOND)} notifications/s (${verdict}).`,
      '',
      '| Measure | Median | Rounds |',
      '|---|---|---|',
      `| Issue bodies/s, typical booking (2 pax, 3 segments), \`generateNotification\` | ${fmt(median(typical))} | ${typical.map((v) => fmt(v)).join(', ')} |`,
      `| Issue bodies/s, any shape (1–9 pax, 1–8 segments) | ${fmt(median(anyShape))} | ${anyShape.map((v) => fmt(v)).join(', ')} |`,
      `| Issue events/s through \`ReservationStore.apply\` (strict schema check included) | ${fmt(median(store))} | ${store.map((v) => fmt(v)).join(', ')} |`,
      `| JSON size of a typical booking, bytes (${fmt(SIZE_SAMPLES)} seeds) | ${fmt(median(raw))} | |`,
      `| gzip size of a typical booking, bytes (${fmt(SIZE_SAMPLES)} seeds) | ${fmt(median(gz))} | |`,
    ].join('\n');
  },
};

export default suite;
