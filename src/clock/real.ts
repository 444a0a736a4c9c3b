import cron, { type ScheduledTask } from 'node-cron';
import { ConflictError } from '../errors.js';
import { BatchListeners } from './listeners.js';
import { nextBatchAfter } from './schedule.js';
import type { AdvanceResult, BatchListener, Clock, ClockState } from './types.js';

/** node-cron 4 takes seconds first: second 0 of minute 55 of every hour (spec "Limits"). */
export const BATCH_CRON = '0 55 * * * *';

/** Wall-clock time; batches on the cron expression `0 55 * * * *` in UTC, never overlapping. */
export class RealClock implements Clock {
  readonly mode = 'real' as const;
  readonly #listeners = new BatchListeners();
  #task: ScheduledTask | undefined;

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {}

  now(): Date {
    return new Date();
  }

  nextBatchAt(from: Date = this.now()): Date {
    return new Date(nextBatchAfter(from.getTime()));
  }

  onBatch(listener: BatchListener): () => void {
    return this.#listeners.add(listener);
  }

  advance(): Promise<AdvanceResult> {
    return Promise.reject(
      new ConflictError(
        'clock_not_manual',
        'The clock is in real mode; only a manual clock can be advanced.',
        {
          accepted: ['manual'],
        },
      ),
    );
  }

  start(): void {
    if (this.#task) return;
    this.#task = cron.schedule(
      BATCH_CRON,
      async (ctx) => {
        // The batch instant is the scheduled minute 55, not the moment the timer happened to fire.
        const at = new Date(Math.floor(ctx.triggeredAt.getTime() / 60_000) * 60_000);
        await this.#listeners.emit(at, this.onListenerError);
      },
      { timezone: 'Etc/UTC', noOverlap: true, name: 'reportbo-redelivery', unref: true },
    );
  }

  stop(): void {
    void this.#task?.destroy();
    this.#task = undefined;
  }

  describe(): ClockState {
    return { mode: this.mode, now: this.now().toISOString(), nextBatchAt: this.nextBatchAt().toISOString() };
  }
}
