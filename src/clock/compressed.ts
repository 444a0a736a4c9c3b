import { AutomaticClock } from './automatic.js';
import { HOUR_MS, nextBatchAfter } from './schedule.js';
import type { ClockState } from './types.js';

/**
 * Emulator time runs `hourMs` real milliseconds per emulator hour from `start()`, beginning at the
 * `start` instant (until then it stands still there, so building the server costs no emulator time).
 * Batches fire one at a time; a batch instant missed because the previous batch ran long is skipped,
 * never doubled.
 */
export class CompressedClock extends AutomaticClock {
  readonly mode = 'compressed' as const;
  #startMs: number;
  #realStart: number | undefined;
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
  }

  now(): Date {
    if (this.#realStart === undefined) return new Date(this.#startMs);
    const elapsedReal = this.realNowMs() - this.#realStart;
    return new Date(Math.floor(this.#startMs + (elapsedReal * HOUR_MS) / this.hourMs));
  }

  start(): void {
    if (this.#running) return;
    // Restarting after stop() resumes from where emulator time stood.
    this.#startMs = this.now().getTime();
    this.#realStart = this.realNowMs();
    this.#running = true;
    this.#schedule(this.#startMs);
  }

  stop(): void {
    if (this.#running) this.#startMs = this.now().getTime();
    this.#realStart = undefined;
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
