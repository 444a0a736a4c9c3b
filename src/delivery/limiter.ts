/**
 * At most `concurrency` tasks at once; the rest wait in arrival order. Keeps 10,000 pending
 * notifications from opening 10,000 sockets (settings.deliveryConcurrency).
 */
export class Limiter {
  #active = 0;
  readonly #waiting = new WaitQueue<() => void>();

  constructor(readonly concurrency: number) {}

  /** Runs `task` once a slot is free; resolves or rejects as it does. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#active >= this.concurrency) await new Promise<void>((wake) => this.#waiting.push(wake));
    else this.#active++;
    try {
      return await task();
    } finally {
      // The slot passes straight to the oldest waiting task, so `active` never overshoots.
      const next = this.#waiting.shift();
      if (next) next();
      else this.#active--;
    }
  }

  /**
   * Starts `task` once a slot is free, without a promise to wait on: for tasks that never reject
   * (an attempt always ends as data, decision 0120). A task that throws or rejects still frees its slot.
   */
  start(task: () => Promise<unknown>): void {
    this.run(task).catch(() => {});
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
class WaitQueue<T> {
  #items: Array<T | undefined> = [];
  #head = 0;

  get length(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  shift(): T | undefined {
    if (this.#head === this.#items.length) return undefined;
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined; // let the started task be collected
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
