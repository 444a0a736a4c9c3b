/**
 * The last `capacity` items pushed, oldest first. Pushing onto a full buffer overwrites the oldest
 * slot in O(1): the journal and the token store record every GetAccessToken call, and trimming an
 * array from the front (`splice(0, n)`) moves every remaining item on each call once full.
 */
export class RingBuffer<T> {
  /** Grows up to `capacity` (no up-front allocation for a short run), then is written in place. */
  #items: T[] = [];
  /** Index of the oldest item once the buffer is full (0 before). */
  #head = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`RingBuffer capacity must be a positive integer (got ${capacity}).`);
  }

  get size(): number {
    return this.#items.length;
  }

  /** Appends an item; answers the item it displaced when the buffer was full, else undefined. */
  push(item: T): T | undefined {
    const items = this.#items;
    if (items.length < this.capacity) {
      items.push(item);
      return undefined;
    }
    const head = this.#head;
    const evicted = items[head];
    items[head] = item;
    this.#head = head + 1 === this.capacity ? 0 : head + 1;
    return evicted;
  }

  /** The item `back` places before the newest (0: the newest), or undefined past the oldest. */
  fromNewest(back: number): T | undefined {
    const n = this.#items.length;
    if (back < 0 || back >= n) return undefined;
    // The newest sits just before the head once full (index n - 1 before).
    return this.#items[(this.#head - 1 - back + 2 * n) % n];
  }

  /** Items oldest first that satisfy `keep` (every item without one). */
  filter(keep: (item: T) => boolean = () => true): T[] {
    const items = this.#items;
    const out: T[] = [];
    for (let i = 0, n = items.length, at = this.#head; i < n; i++) {
      const item = items[at] as T;
      if (keep(item)) out.push(item);
      at = at + 1 === n ? 0 : at + 1;
    }
    return out;
  }

  clear(): void {
    this.#items = [];
    this.#head = 0;
  }
}
