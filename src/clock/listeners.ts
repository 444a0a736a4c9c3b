import type { BatchListener } from './types.js';

/** A small set of batch listeners, called one after another and each awaited. */
export class BatchListeners {
  readonly #listeners = new Set<BatchListener>();

  add(listener: BatchListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Runs every listener for the batch at `at`; a failing listener never stops the others. */
  async emit(at: Date, onError: (err: unknown) => void): Promise<void> {
    for (const listener of [...this.#listeners]) {
      try {
        await listener(at);
      } catch (err) {
        onError(err);
      }
    }
  }
}
