import { ConflictError } from '../errors.js';
import { BatchListeners } from './listeners.js';
import { nextBatchAfter } from './schedule.js';
import type { AdvanceResult, BatchListener, Clock, ClockState } from './types.js';

/** What the clocks that move by themselves (real, compressed) share: listeners, schedule, no advance. */
export abstract class AutomaticClock implements Clock {
  abstract readonly mode: 'real' | 'compressed';
  protected readonly listeners = new BatchListeners();

  abstract now(): Date;
  abstract start(): void;
  abstract stop(): void;

  nextBatchAt(from: Date = this.now()): Date {
    return new Date(nextBatchAfter(from.getTime()));
  }

  onBatch(listener: BatchListener): () => void {
    return this.listeners.add(listener);
  }

  advance(): Promise<AdvanceResult> {
    return Promise.reject(
      new ConflictError(
        'clock_not_manual',
        `The clock is in ${this.mode} mode; only a manual clock can be advanced (start with --clock manual).`,
        { accepted: ['manual'] },
      ),
    );
  }

  describe(): ClockState {
    return { mode: this.mode, now: this.now().toISOString(), nextBatchAt: this.nextBatchAt().toISOString() };
  }
}
