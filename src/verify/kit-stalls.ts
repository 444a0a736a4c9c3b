import { performance } from 'node:perf_hooks';

/** How often the watch ticks: a gap between two ticks longer than the stall threshold is a stall. */
const TICK_MS = 50;

/**
 * Stalls of this process's own event loop, for the held cut (decisions 0263, 0268): a window in which
 * the kit could not run (a starved or paused process, a long synchronous step) is not silence the
 * receiver is blamed for. A timer ticks every TICK_MS; a gap between two ticks over `stallMs` is a
 * stall, noted when it ends. An event-loop delay histogram reset per window missed a stall that began
 * before its first tick after the reset: that tick only sets the histogram's baseline.
 */
export class KitStalls {
  #lastTick = performance.now();
  #stallEndedAt = -1;
  #armedAt = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly stallMs: number) {
    this.#timer = setInterval(() => this.#tick(), TICK_MS).unref();
  }

  #tick(): void {
    const now = performance.now();
    if (now - this.#lastTick > this.stallMs) this.#stallEndedAt = now;
    this.#lastTick = now;
  }

  /** Opens a window: `stalledSinceArm` answers for the time from now on. */
  arm(): void {
    this.#tick();
    this.#armedAt = performance.now();
  }

  /** Whether the process stalled over `stallMs` since `arm`, a stall ending just now included. */
  stalledSinceArm(): boolean {
    this.#tick();
    return this.#stallEndedAt > this.#armedAt;
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
