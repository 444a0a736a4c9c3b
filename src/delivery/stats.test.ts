/**
 * The delivery figures over time (decision 0105): the window's width and bucket count, and the
 * attempts of each credential in the bucket of their wall-clock start, summing to the totals.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Attempt } from './notification.js';
import { type Counted, deliveryStats, TIMELINE_BUCKETS, timelineWindow } from './stats.js';

const T0 = Date.parse('2026-11-26T02:00:00.000Z');

/** An attempt that started `atMs` (wall time) and ended as `statusCode` (null: no answer) after `durationMs`. */
function attempt(number: number, atMs: number, statusCode: number | null, durationMs: number): Attempt {
  const at = new Date(atMs).toISOString();
  return {
    number,
    startedAt: '2026-04-27T10:00:00.000Z', // emulator time: a manual clock gives every attempt the same
    startedAtWall: at,
    finishedAt: '2026-04-27T10:00:00.000Z',
    durationMs,
    trigger: number === 1 ? 'first' : 'batch',
    outcome: statusCode === null ? 'timeout' : 'http_status',
    ...(statusCode === null ? {} : { statusCode }),
    message: '',
  };
}

const notification = (id: string, credentialId: string, attempts: Attempt[]): Counted => ({
  id,
  credentialId,
  state: 'pending',
  attempts,
});

describe('timelineWindow', () => {
  it('has no bucket before any attempt', () => {
    expect(timelineWindow(null, T0)).toEqual({ from: null, bucketMs: 1000, count: 0 });
  });

  it('takes the narrowest width that keeps the span within the bound, buckets aligned to it', () => {
    // 10 s of attempts: 1-second buckets, 11 of them (the first and the last bucket both count).
    expect(timelineWindow(T0 + 250, T0 + 10_400)).toEqual({
      from: new Date(T0).toISOString(),
      bucketMs: 1000,
      count: 11,
    });
    // 40 s: 24 one-second buckets do not reach; 2-second ones do (21 of them).
    expect(timelineWindow(T0, T0 + 40_000)).toMatchObject({ bucketMs: 2000, count: 21 });
    // 3 hours: 15-minute buckets would be 13; 10-minute ones 19 would fit, 5-minute ones 37 would not.
    expect(timelineWindow(T0, T0 + 3 * 3_600_000)).toMatchObject({ bucketMs: 600_000, count: 19 });
    // A month: whole days past the widest named width.
    const month = timelineWindow(T0, T0 + 30 * 86_400_000);
    expect(month.bucketMs % 86_400_000).toBe(0);
    expect(month.count).toBeLessThanOrEqual(TIMELINE_BUCKETS);
  });

  it('never exceeds the bound and always covers the first attempt and now (any span)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e11 }), (first, span) => {
        const w = timelineWindow(first, first + span);
        const from = Date.parse(w.from ?? '');
        expect(w.count).toBeGreaterThan(0);
        expect(w.count).toBeLessThanOrEqual(TIMELINE_BUCKETS);
        expect(from).toBeLessThanOrEqual(first);
        expect(from + w.bucketMs).toBeGreaterThan(first);
        expect(from + w.count * w.bucketMs).toBeGreaterThan(first + span);
        expect(from % w.bucketMs).toBe(0);
      }),
    );
  });
});

describe('deliveryStats timelines', () => {
  it('counts each attempt in the bucket of its wall-clock start, per credential, on one shared window', async () => {
    const records = [
      notification('n-000001', 'a', [attempt(1, T0 + 100, 500, 40), attempt(2, T0 + 2_100, 200, 20)]),
      notification('n-000002', 'a', [attempt(1, T0 + 2_900, 200, 60)]),
      notification('n-000003', 'b', [attempt(1, T0 + 4_000, null, 5000)]),
    ];
    const { window, credentials } = await deliveryStats(['a', 'b', 'c'], records, null, T0 + 4_500);
    expect(window).toEqual({ from: new Date(T0).toISOString(), bucketMs: 1000, count: 5 });
    const [a, b, c] = credentials;
    expect(a?.timeline.map((x) => [x.attempts, x.successful, x.answered, x.meanMs, x.maxMs])).toEqual([
      [1, 0, 1, 40, 40],
      [0, 0, 0, null, null],
      [2, 2, 2, 40, 60],
      [0, 0, 0, null, null],
      [0, 0, 0, null, null],
    ]);
    // A timeout is an attempt, not a success, and no answer: no latency.
    expect(b?.timeline[4]).toMatchObject({ attempts: 1, successful: 0, answered: 0, meanMs: null });
    // A credential without attempts has the window's buckets, all empty.
    expect(c?.timeline).toHaveLength(5);
    expect(c?.timeline.every((x) => x.attempts === 0)).toBe(true);
    expect(a?.timeline.map((x) => x.from)).toEqual(c?.timeline.map((x) => x.from));
  });

  it('sums to the totals, with the emulator clock standing still (a manual clock)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            credential: fc.constantFrom('a', 'b'),
            attempts: fc.array(
              fc.record({
                offset: fc.integer({ min: 0, max: 3 * 86_400_000 }),
                status: fc.constantFrom(200, 201, 500, null),
                duration: fc.integer({ min: 0, max: 30_000 }),
              }),
              { minLength: 1, maxLength: 5 },
            ),
          }),
          { maxLength: 40 },
        ),
        fc.integer({ min: 0, max: 86_400_000 }),
        async (made, after) => {
          const records = made.map((m, i) => {
            const offsets = m.attempts.map((a) => a.offset).sort((x, y) => x - y);
            return notification(
              `n-${i}`,
              m.credential,
              m.attempts.map((a, j) => attempt(j + 1, T0 + (offsets[j] ?? 0), a.status, a.duration)),
            );
          });
          const latest = Math.max(
            T0,
            ...records.flatMap((r) => r.attempts.map((a) => Date.parse(a.startedAtWall))),
          );
          const { window, credentials } = await deliveryStats(['a', 'b'], records, null, latest + after);
          expect(window.count).toBeLessThanOrEqual(TIMELINE_BUCKETS);
          for (const s of credentials) {
            const sum = (k: 'attempts' | 'successful' | 'answered') =>
              s.timeline.reduce((total, x) => total + x[k], 0);
            expect(s.timeline).toHaveLength(window.count);
            expect(sum('attempts')).toBe(s.attempts);
            expect(sum('successful')).toBe(s.successfulAttempts);
            const mine = records.filter((r) => r.credentialId === s.credentialId).flatMap((r) => r.attempts);
            expect(sum('answered')).toBe(mine.filter((a) => a.outcome === 'http_status').length);
            const longest = Math.max(
              0,
              ...mine.filter((a) => a.outcome === 'http_status').map((a) => a.durationMs),
            );
            expect(Math.max(0, ...s.timeline.map((x) => x.maxMs ?? 0))).toBe(longest);
          }
        },
      ),
    );
  });
});

describe('deliveryStats over many notifications', () => {
  it('gives the event loop back between slices of its counting (decision 0209)', async () => {
    const records = Array.from({ length: 50 }, (_, i) =>
      notification(`n-${i}`, 'a', [attempt(1, T0 + i, 200, 10)]),
    );
    let served = false;
    setImmediate(() => {
      served = true;
    });
    // Slices of 0 ms: every notification is a slice of its own.
    const answer = deliveryStats(['a'], records, null, T0 + 100, 0);
    expect(served).toBe(false);
    const { credentials } = await answer;
    expect(served).toBe(true);
    expect(credentials[0]).toMatchObject({ notifications: 50, attempts: 50, successfulAttempts: 50 });
  });
});
