/**
 * At most `concurrency` tasks at once; the rest wait in arrival order. Keeps 10,000 pending
 * notifications from opening 10,000 sockets (settings.deliveryConcurrency).
 */
export class Limiter {
  #active = 0;
  readonly #waiting = new WaitQueue();

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

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.#waiting.length;
  }
}

/** Below this many consumed slots the array is not compacted (compaction would cost more than it frees). */
const COMPACT_MIN_HEAD = 1024;

/**
 * A FIFO with a head index: `shift` is O(1). `Array#shift` moves every element, so a batch queueing
 * 100,000 attempts spent O(n²) in it (docs/benchmarks.md "outbox-scale" profile: `run` 6% self time).
 */
class WaitQueue {
  #items: Array<(() => void) | undefined> = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: () => void): void {
    this.#items.push(item);
  }

  shift(): (() => void) | undefined {
    if (this.#head === this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined; // let the resolved waiter be collected
    if (this.#head === this.#items.length) {
      this.#items = [];
      this.#head = 0;
    } else if (this.#head >= COMPACT_MIN_HEAD && this.#head * 2 >= this.#items.length) {
      // Drop the consumed front once it is at least half the array: amortized O(1) per item.
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}
