import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompressedClock, timeoutSpanWarning } from './compressed.js';
import { RealClock } from './real.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('real clock', () => {
  it('fires the batch at minute 55 of every wall hour (UTC), stamped with that minute', async () => {
    vi.useFakeTimers({ now: new Date('2026-04-27T10:54:58.000Z') });
    const clock = new RealClock();
    const seen: string[] = [];
    clock.onBatch((at) => {
      seen.push(at.toISOString());
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(seen).toEqual(['2026-04-27T10:55:00.000Z']);
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(seen).toEqual(['2026-04-27T10:55:00.000Z', '2026-04-27T11:55:00.000Z']);
    clock.stop();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(seen).toHaveLength(2);
  });

  it('records as skipped, with the reason, a minute 55 that passes while the previous batch still runs', async () => {
    vi.useFakeTimers({ now: new Date('2026-04-27T10:54:58.000Z') });
    const clock = new RealClock();
    const ran: string[] = [];
    const skipped: Array<{ at: string; reason: string }> = [];
    clock.onBatch(async (at, skip) => {
      if (skip) {
        skipped.push({ at: at.toISOString(), reason: skip.reason });
        return;
      }
      ran.push(at.toISOString());
      // The first batch runs for 90 minutes (a hanging receiver, 100,000 pending notifications).
      if (ran.length === 1) await new Promise((r) => setTimeout(r, 90 * 60_000));
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(2 * 3_600_000 + 5_000);
    clock.stop();
    expect(ran).toEqual(['2026-04-27T10:55:00.000Z', '2026-04-27T12:55:00.000Z']);
    expect(skipped).toEqual([{ at: '2026-04-27T11:55:00.000Z', reason: 'previous batch still running' }]);
  });

  it('runs once, late, the minute 55 its timer reached after the machine slept, and records the instants that passed as skipped', async () => {
    vi.useFakeTimers({ now: new Date('2026-04-27T10:50:00.000Z') });
    const clock = new RealClock();
    const ran: string[] = [];
    const skipped: Array<{ at: string; reason: string }> = [];
    clock.onBatch((at, skip) => {
      if (skip) skipped.push({ at: at.toISOString(), reason: skip.reason });
      else ran.push(at.toISOString());
    });
    clock.start();
    vi.setSystemTime(new Date('2026-04-27T12:56:00.000Z')); // the wall clock jumped; timers did not run
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    clock.stop();
    expect(ran).toEqual(['2026-04-27T10:55:00.000Z']);
    expect(skipped.map((s) => s.at)).toEqual(['2026-04-27T11:55:00.000Z', '2026-04-27T12:55:00.000Z']);
  });

  it('schedules nothing once stopped', async () => {
    vi.useFakeTimers({ now: new Date('2026-04-27T10:54:58.000Z') });
    const clock = new RealClock();
    const seen: string[] = [];
    clock.onBatch((at) => {
      seen.push(at.toISOString());
    });
    clock.start();
    clock.stop();
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(seen).toEqual([]);
  });

  it('reads the wall time it is given and arms its first batch for the next minute 55 of that time', async () => {
    vi.useFakeTimers({ now: new Date('2026-04-27T10:00:00.000Z') });
    let wall = Date.parse('2026-04-27T23:54:59.000Z');
    const clock = new RealClock(undefined, () => wall);
    const seen: string[] = [];
    clock.onBatch((at) => {
      seen.push(at.toISOString());
    });
    expect(clock.describe()).toMatchObject({ mode: 'real', nextBatchAt: '2026-04-27T23:55:00.000Z' });
    clock.start();
    wall += 1_000;
    await vi.advanceTimersByTimeAsync(1_000);
    expect(seen).toEqual(['2026-04-27T23:55:00.000Z']);
    clock.stop();
  });

  it('refuses to be advanced, naming the mode that can be', async () => {
    await expect(new RealClock().advance()).rejects.toMatchObject({ code: 'clock_not_manual', status: 409 });
  });
});

describe('compressed clock', () => {
  it('runs one emulator hour per hourMs and fires each batch once, at its own emulator instant', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const clock = new CompressedClock(new Date('2026-04-27T10:00:00Z'), 2_000, undefined, () =>
      performance.now(),
    );
    const seen: string[] = [];
    clock.onBatch((at) => {
      seen.push(at.toISOString());
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(clock.now().toISOString()).toBe('2026-04-27T10:30:00.000Z');
    expect(seen).toEqual([]);
    await vi.advanceTimersByTimeAsync(900); // 10:57 emulator time
    expect(seen).toEqual(['2026-04-27T10:55:00.000Z']);
    await vi.advanceTimersByTimeAsync(4_000);
    expect(seen).toEqual([
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
    ]);
    expect(clock.describe()).toMatchObject({
      mode: 'compressed',
      hourMs: 2_000,
      nextBatchAt: '2026-04-27T13:55:00.000Z',
    });
    clock.stop();
  });

  it('never runs a batch before its emulator instant when the timer fires a fraction of a real millisecond early', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // 1 real ms = 1 emulator s; the real time the clock reads lags the timers by 0.5 ms, as a timer
    // counting whole milliseconds can.
    let real = 0;
    const clock = new CompressedClock(new Date('2026-04-27T10:54:00Z'), 3_600, undefined, () => real);
    const seen: Array<{ at: string; now: string }> = [];
    clock.onBatch((at) => {
      seen.push({ at: at.toISOString(), now: clock.now().toISOString() });
    });
    clock.start();
    real = 59.5;
    await vi.advanceTimersByTimeAsync(60); // the timer of 10:55 fires at 10:54:59.5 emulator time
    expect(seen).toEqual([]);
    real = 60;
    await vi.advanceTimersByTimeAsync(1);
    expect(seen).toEqual([{ at: '2026-04-27T10:55:00.000Z', now: '2026-04-27T10:55:00.000Z' }]);
    clock.stop();
  });

  it('skips a batch instant that passed while the previous batch was still running, never doubling up, and says so', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const clock = new CompressedClock(new Date('2026-04-27T10:50:00Z'), 1_000, undefined, () =>
      performance.now(),
    );
    const ran: string[] = [];
    const skipped: Array<{ at: string; reason: string }> = [];
    clock.onBatch(async (at, skip) => {
      if (skip) {
        skipped.push({ at: at.toISOString(), reason: skip.reason });
        return;
      }
      ran.push(at.toISOString());
      // A batch lasting 2.5 emulator hours: the 11:55 and 12:55 instants pass meanwhile.
      await new Promise((r) => setTimeout(r, 2_500));
    });
    clock.start();
    await vi.advanceTimersByTimeAsync(6_000);
    clock.stop();
    expect(ran[0]).toBe('2026-04-27T10:55:00.000Z');
    expect(ran[1]).toBe('2026-04-27T13:55:00.000Z');
    expect(new Set(ran).size).toBe(ran.length);
    expect(skipped.slice(0, 2).map((s) => s.at)).toEqual([
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
    ]);
    expect(skipped[0]!.reason).toBe(
      'previous batch still running: the batch of 2026-04-27T10:55:00.000Z took 2500 real ms = 2 h 30 min of emulator time (hourMs 1000); the response timeout is real time and does not scale with hourMs',
    );
    // Every instant up to the last one reached either ran or was recorded as skipped.
    const all = [...ran, ...skipped.map((s) => s.at)].sort();
    const hours = all.map((t) => Number(t.slice(11, 13)));
    expect(hours).toEqual(Array.from({ length: hours.length }, (_, i) => 10 + i));
  });

  it('warns when the real-time response timeout spans more than 5 emulator minutes', () => {
    expect(timeoutSpanWarning(30_000, 60_000)).toContain('spans 30 min of emulator time');
    expect(timeoutSpanWarning(30_000, 500)).toContain('spans 60 h of emulator time');
    expect(timeoutSpanWarning(30_000, 500)).toContain('the batches that pass meanwhile are skipped');
    expect(timeoutSpanWarning(5_000, 60_000)).toBeUndefined();
    expect(timeoutSpanWarning(30_000, 3_600_000)).toBeUndefined();
  });
});

describe('compressed clock before it starts', () => {
  it('stands still at its start instant until start(), then runs from there', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    const clock = new CompressedClock(new Date('2026-04-27T10:00:00Z'), 3_600, undefined, () =>
      performance.now(),
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(clock.now().toISOString()).toBe('2026-04-27T10:00:00.000Z');
    clock.start();
    await vi.advanceTimersByTimeAsync(60); // 60 real ms = one emulator minute at hourMs 3600
    expect(clock.now().toISOString()).toBe('2026-04-27T10:01:00.000Z');
    clock.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(clock.now().toISOString()).toBe('2026-04-27T10:01:00.000Z');
  });
});
