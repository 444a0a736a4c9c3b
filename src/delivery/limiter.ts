/**
 * At most `concurrency` tasks at once; the rest wait in arrival order. Keeps 10,000 pending
 * notifications from opening 10,000 sockets (settings.deliveryConcurrency).
 */
export class Limiter {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  /** Runs `task` once a slot is free. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.concurrency) {
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#active++;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next task, so `active` never overshoots.
      if (next) next();
      else this.#active--;
    }
  }

  get active(): number {
    return this.#active;
  }
}
