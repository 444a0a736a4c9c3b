import { describe, expect, it } from 'vitest';
import { parseDurationMs } from './duration.js';
import { ManualClock } from './manual.js';
import { batchesBetween, nextBatchAfter } from './schedule.js';

const at = (iso: string) => new Date(iso).getTime();

describe('batch schedule', () => {
  it('puts the next batch at minute 55 of the same hour when before it', () => {
    expect(new Date(nextBatchAfter(at('2026-04-27T10:54:00Z'))).toISOString()).toBe(
      '2026-04-27T10:55:00.000Z',
    );
  });
  it('puts the next batch in the following hour when at or after minute 55', () => {
    expect(new Date(nextBatchAfter(at('2026-04-27T10:55:00Z'))).toISOString()).toBe(
      '2026-04-27T11:55:00.000Z',
    );
    expect(new Date(nextBatchAfter(at('2026-04-27T10:56:00Z'))).toISOString()).toBe(
      '2026-04-27T11:55:00.000Z',
    );
  });
  it('lists every batch crossed, including one exactly at the end', () => {
    const list = batchesBetween(at('2026-04-27T10:00:00Z'), at('2026-04-27T12:55:00Z')).map((t) =>
      new Date(t).toISOString(),
    );
    expect(list).toEqual([
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
    ]);
  });
});

describe('manual clock', () => {
  it('runs each crossed batch in order, at its own instant, before advance resolves', async () => {
    const clock = new ManualClock(new Date('2026-04-27T10:00:00Z'));
    const seen: string[] = [];
    clock.onBatch(async (instant) => {
      await new Promise((r) => setTimeout(r, 5));
      seen.push(`${instant.toISOString()}@${clock.now().toISOString()}`);
    });
    const result = await clock.advance({ byMs: parseDurationMs('PT2H') });
    expect(seen).toEqual([
      '2026-04-27T10:55:00.000Z@2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z@2026-04-27T11:55:00.000Z',
    ]);
    expect(result).toEqual({
      from: '2026-04-27T10:00:00.000Z',
      to: '2026-04-27T12:00:00.000Z',
      batches: ['2026-04-27T10:55:00.000Z', '2026-04-27T11:55:00.000Z'],
    });
  });

  it('goes to the next batch and never runs the same batch twice', async () => {
    const clock = new ManualClock(new Date('2026-04-27T10:56:00Z'));
    let runs = 0;
    clock.onBatch(() => {
      runs++;
    });
    await clock.advance({ to: 'next-batch' });
    expect(clock.now().toISOString()).toBe('2026-04-27T11:55:00.000Z');
    await clock.advance({ byMs: 0 });
    expect(runs).toBe(1);
  });

  it('serializes concurrent advances', async () => {
    const clock = new ManualClock(new Date('2026-04-27T10:00:00Z'));
    const [a, b] = await Promise.all([
      clock.advance({ byMs: 3_600_000 }),
      clock.advance({ byMs: 3_600_000 }),
    ]);
    expect(a.to).toBe('2026-04-27T11:00:00.000Z');
    expect(b.from).toBe('2026-04-27T11:00:00.000Z');
  });

  it('refuses to move back in time', async () => {
    const clock = new ManualClock(new Date('2026-04-27T10:00:00Z'));
    await expect(clock.advance({ to: new Date('2026-04-27T09:00:00Z') })).rejects.toMatchObject({
      code: 'clock_backwards',
      status: 409,
    });
  });
});

describe('durations', () => {
  it.each([
    ['PT1H', 3_600_000],
    ['P1DT30M', 88_200_000],
    ['PT0.5S', 500],
    ['500ms', 500],
    ['2s', 2_000],
    ['5m', 300_000],
    ['1500', 1_500],
  ])('reads %s as %d ms', (text, ms) => {
    expect(parseDurationMs(text)).toBe(ms);
  });
  it.each(['', 'P', 'PT', '1 hour', '-5s', 'PT1X'])(
    'rejects %j with a message listing accepted forms',
    (text) => {
      expect(() => parseDurationMs(text)).toThrow(/ISO 8601/);
    },
  );
});
