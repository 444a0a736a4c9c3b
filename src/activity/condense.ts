/**
 * The per-second budget of the log's busiest lines (decision 0053's outcome, decision 0140): at most
 * `perSecond` GetAccessToken lines and `perSecond` delivery-attempt lines a second, then one summary
 * line for the rest of that second. Successes and failures have a budget each, so a burst of
 * successes never hides a refused call or a failed attempt; failures past their own budget are
 * counted by cause in the summary.
 */

/** What one second held beyond its budget, written as one summary line. */
export interface CondensedSecond {
  /** Calls (or attempts) not written as lines of their own. */
  count: number;
  ok: number;
  failed: number;
  /** The failures not written, by cause (`1200 invalid_credentials`, `HTTP 503`, `timeout`). */
  causes: Record<string, number>;
}

/** One kind's budget (token or attempt). `emit` writes the summary of a second that went over it. */
export class LineBudget {
  readonly #perSecond: number;
  readonly #emit: (second: CondensedSecond) => void;
  readonly #now: () => number;
  #windowStart = -Infinity;
  #okLines = 0;
  #failedLines = 0;
  #held: CondensedSecond | undefined;
  #timer: NodeJS.Timeout | undefined;

  /** `perSecond` 0: every line is written. `now` is a monotonic millisecond clock (tests may pass their own). */
  constructor(perSecond: number, emit: (second: CondensedSecond) => void, now = () => performance.now()) {
    this.#perSecond = perSecond;
    this.#emit = emit;
    this.#now = now;
  }

  /** Whether this call's own line is written; if not, it is counted for the second's summary. */
  admit(ok: boolean, cause: string): boolean {
    if (this.#perSecond === 0) return true;
    const now = this.#now();
    if (now - this.#windowStart >= 1_000) {
      // The timer may run late on a busy loop: the first line of the next second closes the last one.
      this.flush();
      this.#windowStart = now;
    }
    if (ok ? this.#okLines < this.#perSecond : this.#failedLines < this.#perSecond) {
      if (ok) this.#okLines++;
      else this.#failedLines++;
      return true;
    }
    if (!this.#held) {
      this.#held = { count: 0, ok: 0, failed: 0, causes: {} };
      // unref: a summary still to come never keeps the process alive; stop() flushes it.
      this.#timer = setTimeout(() => this.flush(), Math.max(0, this.#windowStart + 1_000 - now));
      this.#timer.unref();
    }
    const held = this.#held;
    held.count++;
    if (ok) held.ok++;
    else {
      held.failed++;
      held.causes[cause] = (held.causes[cause] ?? 0) + 1;
    }
    return false;
  }

  /** Ends the current second: writes its summary if anything was held back. */
  flush(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    const held = this.#held;
    this.#held = undefined;
    this.#okLines = 0;
    this.#failedLines = 0;
    this.#windowStart = -Infinity;
    if (held) this.#emit(held);
  }
}

const count = (n: number) => n.toLocaleString('en-US');

/** `, 2 refused: 1 1200 invalid_credentials, 1 fault http_500 (f-1)`, or `, 0 refused`. */
export function causesText(second: CondensedSecond, failedWord: string): string {
  const causes = Object.entries(second.causes)
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `${count(n)} ${cause}`);
  return `, ${count(second.failed)} ${failedWord}${causes.length ? ` (${causes.join(', ')})` : ''}`;
}

/** `13,950 more GetAccessToken calls in the last second, 13,950 ok, 0 refused; GET /__admin/requests lists them`. */
export function tokenSummary(second: CondensedSecond): string {
  const calls = second.count === 1 ? 'call' : 'calls';
  return `${count(second.count)} more GetAccessToken ${calls} in the last second, ${count(second.ok)} ok${causesText(second, 'refused')}; GET /__admin/requests lists them`;
}

/** `1,200 more delivery attempts in the last second, 1,180 delivered, 20 failed (20 HTTP 503); …`. */
export function attemptSummary(second: CondensedSecond): string {
  const attempts = second.count === 1 ? 'attempt' : 'attempts';
  return `${count(second.count)} more delivery ${attempts} in the last second, ${count(second.ok)} delivered${causesText(second, 'failed')}; GET /__admin/notifications lists them`;
}

/** `250 more admin calls refused in the last second (250 403 admin_origin_refused); the live stream shows each`. */
export function refusedSummary(second: CondensedSecond): string {
  const calls = second.count === 1 ? 'call' : 'calls';
  const causes = Object.entries(second.causes)
    .sort((a, b) => b[1] - a[1])
    .map(([cause, n]) => `${count(n)} ${cause}`);
  return `${count(second.count)} more admin ${calls} refused in the last second (${causes.join(', ')}); the live stream shows each`;
}
