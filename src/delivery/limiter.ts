/**
 * At most `concurrency` tasks at once; the rest wait in arrival order. Keeps 10,000 pending
 * notifications from opening 10,000 sockets (settings.deliveryConcurrency). A waiting task is the
 * closure it was given and nothing else: no suspended async function, no promise of its own
 * (`start`). A burst of events queues thousands of first attempts, and each one waiting as an
 * async frame (~1.6 KB with its promises) lived long enough to be promoted to V8's old space and
 * fragment it (decision 0159).
 */
export class Limiter {
  #active = 0;
  readonly #waiting = new WaitQueue<() => Promise<unknown>>();

  constructor(readonly concurrency: number) {}

  /** Runs `task` once a slot is free; resolves or rejects as it does. */
  run<T>(task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) =>
      this.start(async () => {
        try {
          resolve(await task());
        } catch (err) {
          reject(err);
        }
      }),
    );
  }

  /**
   * Starts `task` once a slot is free, without a promise to wait on: for tasks that never reject
   * (an attempt always ends as data, decision 0120). A task that throws or rejects still frees its slot.
   */
  start(task: () => Promise<unknown>): void {
    if (this.#active >= this.concurrency) {
      this.#waiting.push(task);
      return;
    }
    this.#active++;
    this.#go(task);
  }

  #go(task: () => Promise<unknown>): void {
    let running: Promise<unknown>;
    try {
      running = task();
    } catch {
      running = Promise.resolve();
    }
    running.then(this.#next, this.#next);
  }

  /** A task ended: its slot passes straight to the oldest waiting task, so `active` never overshoots. */
  readonly #next = (): void => {
    const next = this.#waiting.shift();
    if (next) this.#go(next);
    else this.#active--;
  };

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
