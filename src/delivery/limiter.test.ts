import { describe, expect, it } from 'vitest';
import { Limiter } from './limiter.js';

/** A task the test finishes by hand, recording when it started. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { done, open };
}

describe('Limiter', () => {
  it('never runs more than `concurrency` tasks at once and starts them in arrival order', async () => {
    const limiter = new Limiter(3);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const gates = Array.from({ length: 10 }, gate);
    const results = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        running++;
        peak = Math.max(peak, running);
        await g.done;
        running--;
        return i * 10;
      }),
    );
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2]);
    expect(limiter.waiting).toBe(7);
    // Finish out of order: the freed slot still goes to the oldest waiting task.
    gates[1]!.open();
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([0, 1, 2, 3]);
    for (const g of gates) g.open();
    expect(await Promise.all(results)).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(3);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  it('runs every one of 10,000 queued tasks exactly once, in order, past the queue compaction', async () => {
    const limiter = new Limiter(4);
    const count = 10_000;
    const order: number[] = [];
    let running = 0;
    let peak = 0;
    const all = Array.from({ length: count }, (_, i) =>
      limiter.run(async () => {
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await Promise.resolve();
        running--;
        // A failing task frees its slot like any other.
        if (i % 1000 === 999) throw new Error(`task ${i}`);
        return i;
      }),
    );
    const settled = await Promise.allSettled(all);
    expect(order).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(settled.filter((s) => s.status === 'rejected')).toHaveLength(10);
    expect(peak).toBe(4);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });

  it('accepts new tasks after the queue drained', async () => {
    const limiter = new Limiter(1);
    await Promise.all(Array.from({ length: 3 }, (_, i) => limiter.run(async () => i)));
    const g = gate();
    const first = limiter.run(() => g.done.then(() => 'first'));
    const second = limiter.run(async () => 'second');
    expect(limiter.waiting).toBe(1);
    g.open();
    expect(await Promise.all([first, second])).toEqual(['first', 'second']);
  });

  it('starts background tasks in arrival order with runs, and frees the slot of a task that throws or rejects', async () => {
    const limiter = new Limiter(1);
    const order: string[] = [];
    const g = gate();
    limiter.start(async () => {
      order.push('a');
      await g.done;
    });
    limiter.start(() => {
      order.push('throws');
      throw new Error('synchronous');
    });
    limiter.start(async () => {
      order.push('rejects');
      throw new Error('asynchronous');
    });
    const thrown = limiter.run((): Promise<string> => {
      order.push('run throws');
      throw new Error('run, synchronous');
    });
    const last = limiter.run(async () => {
      order.push('last');
      return 'last';
    });
    expect([order, limiter.active, limiter.waiting]).toEqual([['a'], 1, 4]);
    g.open();
    await expect(thrown).rejects.toThrow('run, synchronous');
    expect(await last).toBe('last');
    expect(order).toEqual(['a', 'throws', 'rejects', 'run throws', 'last']);
    expect([limiter.active, limiter.waiting]).toEqual([0, 0]);
  });
});
