/**
 * How a verify run stops what it no longer needs (docs/verify.md "Speed"): one signal for the run's
 * `--budget`, which every wait of the kit ends on (a probe's asking again, a settle, the experiments),
 * and a sender whose attempts in flight can be cancelled (the budget spent, a receiver found stuck on
 * kept-open connections). A cancelled attempt ends as data (`interrupted`, naming why), never a throw.
 */
import type { DeliveryRequest, HttpSender, Sender } from '../delivery/index.js';
import type { SendResult } from '../delivery/outcome.js';

/**
 * A sender whose attempts in flight can be cancelled (`cancelRunning`; later ones go out as usual),
 * and whose every attempt ends once `stop` aborts (the run's budget).
 */
export class CancellableSender implements Sender {
  #running = new AbortController();

  constructor(
    readonly inner: HttpSender,
    readonly stop: AbortSignal,
  ) {}

  send(request: DeliveryRequest, signal?: AbortSignal): Promise<SendResult> {
    const signals = [this.#running.signal, this.stop, ...(signal ? [signal] : [])];
    return this.inner.send(request, AbortSignal.any(signals));
  }

  /** When (epoch ms) the receiver last completed a TLS handshake or sent an answer byte; 0 before any. */
  get signOfLifeAt(): number {
    return this.inner.signOfLifeAt;
  }

  /** Ends every attempt running now as `interrupted`, naming `why`; attempts started later go out. */
  cancelRunning(why: string): void {
    this.#running.abort(new Error(why));
    this.#running = new AbortController();
  }

  close(): void {
    this.inner.close();
  }
}

/**
 * The run's time budget: `signal` aborts when it is spent (never without a budget, unless `arm`ed).
 * Answers `left()` in ms (Infinity without a budget) and `what` it is, for reasons.
 */
export class RunBudget {
  readonly #controller = new AbortController();
  #timer: NodeJS.Timeout | undefined;
  #end: number | undefined;
  #what: string;

  constructor(
    readonly budgetMs: number | undefined,
    readonly started = performance.now(),
  ) {
    this.#what = `the run's --budget of ${budgetMs} ms`;
    if (budgetMs !== undefined) this.#set(started + budgetMs);
  }

  #set(end: number): void {
    this.#end = end;
    this.#timer = setTimeout(
      () => this.#controller.abort(new Error(`${this.#what} was spent`)),
      Math.max(0, end - performance.now()),
    );
  }

  /**
   * Without --budget, gives the run one of `limitMs` from its start, saying `why` (decision 0239);
   * a run with a budget, or already armed, keeps its own.
   */
  arm(limitMs: number, why: string): void {
    if (this.#end !== undefined) return;
    this.#what = `the run's default limit of ${limitMs} ms (no --budget; ${why})`;
    this.#set(this.started + limitMs);
  }

  /** The budget as reasons name it: `the run's --budget of N ms`, or the default limit and why. */
  get what(): string {
    return this.#what;
  }

  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  get spent(): boolean {
    return this.#controller.signal.aborted;
  }

  left(): number {
    return this.#end === undefined ? Number.POSITIVE_INFINITY : Math.max(0, this.#end - performance.now());
  }

  close(): void {
    clearTimeout(this.#timer);
  }
}

/** Waits `ms`, or less when `signal` aborts first; never throws. */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
