import { ConflictError } from '../errors.js';
import { BatchListeners } from './listeners.js';
import { batchesBetween, HOUR_MS, nextBatchAfter } from './schedule.js';
import type { AdvanceResult, BatchListener, Clock, ClockState } from './types.js';

/**
 * The one schedule driver of the clocks that move by themselves (real, compressed): a timer armed
 * for the next minute 55 (spec "Limits"), batches one at a time, and every instant that passed
 * while a batch still ran recorded as skipped with its reason, never doubled and never dropped.
 * A subclass says what emulator time it is (`now`) and how many real ms an emulator span lasts
 * (`hourMs` real ms per emulator hour: `HOUR_MS` for the real clock).
 */
export abstract class AutomaticClock implements Clock {
  abstract readonly mode: 'real' | 'compressed';
  protected readonly listeners = new BatchListeners();
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(
    /** Real milliseconds per emulator hour. */
    readonly hourMs: number,
    protected readonly onListenerError: (err: unknown) => void = () => {},
    /** A monotonic real-time source in ms, to measure how long a batch ran. */
    protected readonly realNowMs: () => number = () => performance.now(),
  ) {}

  abstract now(): Date;

  /** Starts emulator time (compressed) and arms the first batch. Idempotent. */
  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.resume();
    this.#arm(nextBatchAfter(this.now().getTime()));
  }

  /** Stops every timer; a batch already running finishes, and nothing is armed after it. */
  stop(): void {
    if (this.#running) this.pause();
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Hooks for a clock whose time only runs while started (compressed). */
  protected resume(): void {}
  protected pause(): void {}

  #arm(at: number): void {
    if (!this.#running) return;
    const delayReal = Math.max(0, ((at - this.now().getTime()) * this.hourMs) / HOUR_MS);
    this.#timer = setTimeout(async () => {
      // Timers count whole real milliseconds and may fire a fraction early (seconds of emulator
      // time in compressed mode): a batch never runs before its instant.
      if (this.now().getTime() < at) return this.#arm(at);
      const startedReal = this.realNowMs();
      await this.listeners.emit(new Date(at), this.onListenerError);
      this.#arm(nextBatchAfter(await this.#skipPassed(at, this.realNowMs() - startedReal)));
    }, delayReal);
    this.#timer.unref();
  }

  /**
   * Reports every batch instant that passed while the batch of `ranAt` ran (`tookReal` ms), or
   * while the process could not fire the timer (a suspended machine), as skipped; answers the last
   * instant handled, after which the next batch is armed.
   */
  async #skipPassed(ranAt: number, tookReal: number): Promise<number> {
    let last = ranAt;
    for (;;) {
      if (!this.#running) return last;
      const passed = batchesBetween(last, this.now().getTime());
      if (passed.length === 0) return last;
      for (const t of passed) {
        await this.listeners.emit(new Date(t), this.onListenerError, {
          reason: this.skipReason(ranAt, tookReal),
        });
      }
      last = passed[passed.length - 1]!;
    }
  }

  /** Why an instant that passed during the batch of `ranAt` (which took `tookReal` ms) was skipped. */
  protected skipReason(_ranAt: number, _tookReal: number): string {
    return 'previous batch still running';
  }

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
