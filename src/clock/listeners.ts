import type { BatchListener, BatchSkip } from './types.js';

/** A small set of batch listeners, called one after another and each awaited. */
export class BatchListeners {
  readonly #listeners = new Set<BatchListener>();

  add(listener: BatchListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Runs every listener for the batch at `at` (or tells them it was skipped, with `skip`); a failing
   * listener never stops the others.
   */
  async emit(at: Date, onError: (err: unknown) => void, skip?: BatchSkip): Promise<void> {
    for (const listener of [...this.#listeners]) {
      try {
        await (skip ? listener(at, skip) : listener(at));
      } catch (err) {
        onError(err);
      }
    }
  }
}
