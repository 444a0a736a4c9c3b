import type { Activity, ActivityListener } from './types.js';

/**
 * Where the delivery engine, the clock routes, the GetAccessToken journal and the admin routes say
 * what happened, for whoever listens (the live stream, the info log). Publishers test `active` before
 * they build an activity, so with nobody listening a publish costs one property read.
 */
export class ActivityBus {
  readonly #listeners = new Set<ActivityListener>();
  #onListenerError: (err: unknown) => void;

  constructor(onListenerError: (err: unknown) => void = () => {}) {
    this.#onListenerError = onListenerError;
  }

  /** Someone listens: build and publish the activity; otherwise skip both. */
  get active(): boolean {
    return this.#listeners.size > 0;
  }

  /** Registers a listener; returns a function that removes it. */
  subscribe(listener: ActivityListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Hands the activity to every listener, synchronously; a throwing listener never stops the others. */
  publish(activity: Activity): void {
    for (const listener of this.#listeners) {
      try {
        listener(activity);
      } catch (err) {
        this.#onListenerError(err);
      }
    }
  }

  /** How many listen now. */
  get listenerCount(): number {
    return this.#listeners.size;
  }
}
