import { describe, expect, it } from 'vitest';
import { KitStalls } from './kit-stalls.js';

/** Stops this whole process for `ms`, as a descheduled or paused process would be. */
const stopProcess = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

describe('KitStalls', () => {
  it('notes a stall that begins the moment its window is armed (decision 0268)', async () => {
    const stalls = new KitStalls(200);
    try {
      stalls.arm();
      stopProcess(600);
      // The held check runs once the timers due meanwhile have run.
      await new Promise((resolve) => setTimeout(resolve, 0));
      await new Promise((resolve) => setImmediate(resolve));
      expect(stalls.lostSinceArm()).toBeGreaterThanOrEqual(500);
    } finally {
      stalls.close();
    }
  });

  it('notes a stall that ends just as the check runs, before its own timer ticked', () => {
    const stalls = new KitStalls(200);
    try {
      stalls.arm();
      stopProcess(600);
      expect(stalls.lostSinceArm()).toBeGreaterThanOrEqual(500);
    } finally {
      stalls.close();
    }
  });

  it('does not count a stall that ended before the window was armed', async () => {
    const stalls = new KitStalls(200);
    try {
      stopProcess(600);
      await new Promise((resolve) => setTimeout(resolve, 0));
      stalls.arm();
      expect(stalls.lostSinceArm()).toBe(0);
    } finally {
      stalls.close();
    }
  });
});
