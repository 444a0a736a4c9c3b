import { AutomaticClock } from './automatic.js';
import { HOUR_MS, nextBatchAfter } from './schedule.js';
import type { ClockState } from './types.js';

/**
 * Emulator time runs `hourMs` real milliseconds per emulator hour, starting at `start`. Batches fire
 * one at a time; a batch instant missed because the previous batch ran long is skipped, never doubled.
 */
export class CompressedClock extends AutomaticClock {
  readonly mode = 'compressed' as const;
  readonly #startMs: number;
  readonly #realStart: number;
  #timer: NodeJS.Timeout | undefined;
  #running = false;

  constructor(
    start: Date,
    readonly hourMs: number,
    private readonly onListenerError: (err: unknown) => void = () => {},
    private readonly realNowMs: () => number = () => performance.now(),
  ) {
    super();
    this.#startMs = start.getTime();
    this.#realStart = realNowMs();
  }

  now(): Date {
    const elapsedReal = this.realNowMs() - this.#realStart;
    return new Date(Math.floor(this.#startMs + (elapsedReal * HOUR_MS) / this.hourMs));
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#schedule(this.now().getTime());
  }

  stop(): void {
    this.#running = false;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(afterMs: number): void {
    if (!this.#running) return;
    const at = nextBatchAfter(Math.max(afterMs, this.now().getTime()));
    const delayReal = Math.max(0, ((at - this.now().getTime()) * this.hourMs) / HOUR_MS);
    this.#timer = setTimeout(async () => {
      await this.listeners.emit(new Date(at), this.onListenerError);
      this.#schedule(at);
    }, delayReal);
    this.#timer.unref();
  }

  override describe(): ClockState {
    return { ...super.describe(), hourMs: this.hourMs };
  }
}
