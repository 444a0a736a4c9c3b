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
 * The run's time budget: `signal` aborts when it is spent (never without a budget). Answers `left()`
 * in ms (Infinity without a budget).
 */
export class RunBudget {
  readonly #controller = new AbortController();
  readonly #timer: NodeJS.Timeout | undefined;
  readonly #end: number | undefined;

  constructor(
    readonly budgetMs: number | undefined,
    started = performance.now(),
  ) {
    if (budgetMs === undefined) return;
    this.#end = started + budgetMs;
    this.#timer = setTimeout(
      () => this.#controller.abort(new Error(`the run's --budget of ${budgetMs} ms was spent`)),
      Math.max(0, this.#end - performance.now()),
    );
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
