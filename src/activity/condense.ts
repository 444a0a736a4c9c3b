/**
 * The per-second budget of the log's busiest lines (decision 0140, amended by 0210): at most
 * `perSecond` successful GetAccessToken calls and `perSecond` delivered attempts a second get a line
 * of their own, then one summary line counts the rest of that second. A failure (a refused call, a
 * failed attempt, a refused admin call) is never condensed: each has its line, whatever the budget.
 */

import type { CondensedSecond } from '../log.js';

/** One kind's budget (token or attempt). `emit` writes the summary of a second that went over it. */
export class LineBudget {
  readonly #perSecond: number;
  readonly #emit: (second: CondensedSecond) => void;
  readonly #now: () => number;
  #windowStart = -Infinity;
  #okLines = 0;
  #held: CondensedSecond | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** `perSecond` 0: every line is written. `now` is a monotonic millisecond clock (tests may pass their own). */
  constructor(perSecond: number, emit: (second: CondensedSecond) => void, now = () => performance.now()) {
    this.#perSecond = perSecond;
    this.#emit = emit;
    this.#now = now;
  }

  /** Whether this call's own line is written; a success past the budget is counted for the second's summary instead. */
  admit(ok: boolean): boolean {
    if (this.#perSecond === 0 || !ok) return true;
    const now = this.#now();
    if (now - this.#windowStart >= 1_000) {
      // The timer may run late on a busy loop: the first line of the next second closes the last one.
      this.flush();
      this.#windowStart = now;
    }
    if (this.#okLines < this.#perSecond) {
      this.#okLines++;
      return true;
    }
    if (!this.#held) {
      this.#held = { count: 0 };
      // unref: a summary still to come never keeps the process alive; stop() flushes it.
      this.#timer = setTimeout(() => this.flush(), Math.max(0, this.#windowStart + 1_000 - now));
      this.#timer.unref();
    }
    this.#held.count++;
    return false;
  }

  /** Ends the current second: writes its summary if anything was held back. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    this.#held = undefined;
    this.#okLines = 0;
    this.#windowStart = -Infinity;
    if (held) this.#emit(held);
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/** `13,950 more GetAccessToken calls in the last second, all ok; GET /__admin/requests lists them`. */
export function tokenSummary(second: CondensedSecond): string {
  const calls = second.count === 1 ? 'call' : 'calls';
  return `${count(second.count)} more GetAccessToken ${calls} in the last second, all ok; GET /__admin/requests lists them`;
}

/** `1,200 more delivery attempts in the last second, all delivered; GET /__admin/notifications lists them`. */
export function attemptSummary(second: CondensedSecond): string {
  const attempts = second.count === 1 ? 'attempt' : 'attempts';
  return `${count(second.count)} more delivery ${attempts} in the last second, all delivered; GET /__admin/notifications lists them`;
}
