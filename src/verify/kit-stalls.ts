import { performance } from 'node:perf_hooks';

/** How often the watch ticks: a gap between two ticks longer than the stall threshold is a stall. */
const TICK_MS = 50;

/**
 * Stalls of this process's own event loop, for the held cut (decisions 0263, 0268): time in which the
 * kit could not run (a starved or paused process, a long synchronous step of another run in the same
 * process) is not silence the receiver is blamed for. A timer ticks every TICK_MS; a gap between two
 * ticks over `stallMs` is a stall, and its length past one tick is time lost. An event-loop delay
 * histogram reset per window missed a stall begun before its first tick after the reset: that tick
 * only sets the histogram's baseline.
 */
export class KitStalls {
  #lastTick = performance.now();
  /** Time lost to stalls since the watch began, in ms. */
  #lostMs = 0;
  #lostAtArm = 0;
  readonly #timer: NodeJS.Timeout;

  constructor(readonly stallMs: number) {
    this.#timer = setInterval(() => this.#tick(), TICK_MS).unref();
  }

  #tick(): void {
    const now = performance.now();
    const gap = now - this.#lastTick;
    if (gap > this.stallMs) this.#lostMs += gap - TICK_MS;
    this.#lastTick = now;
  }

  /** Opens a window: `lostSinceArm` answers for the time from now on. */
  arm(): void {
    this.#tick();
    this.#lostAtArm = this.#lostMs;
  }

  /** The time (ms) lost to stalls over `stallMs` since `arm`, a stall ending just now included. */
  lostSinceArm(): number {
    this.#tick();
    return Math.round(this.#lostMs - this.#lostAtArm);
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
