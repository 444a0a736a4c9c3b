/**
 * A module loaded on first use instead of at start-up: the one mechanism that keeps the admin API
 * (`app.ts`) and the reservation and delivery services (`emulator.ts`) off the path to the first
 * GetAccessToken. Request handlers `await load()`; synchronous code (a getter of the public
 * `Emulator` interface) calls `get()`, which answers the loaded module or says which `load()` to
 * await first. There is no synchronous fallback: one way in, one error if it was skipped.
 *
 * What it buys (decision 0032; import time on top of `dist/server.js`, medians of 8 fresh processes on
 * the 2-core bench machine): the delivery engine (undici) ~45 ms, the reservation lifecycle (the
 * generator, the contract schema) ~18 ms, the admin routes beyond those ~6 ms — ~70 ms of a cold
 * start of ~250 ms. The admin routes alone would not pass the 10 ms bar, but they import the
 * delivery engine, so they stay behind the same lazy load.
 */
import { InternalError } from './errors.js';

export interface LazyModule<T> {
  /** Imports the module once; every call answers the same promise. */
  load(): Promise<T>;
  /** The module `load()` brought; throws, naming `loader`, when it has not been awaited yet. */
  get(): T;
}

/**
 * `importer` must be a literal `() => import('./x.js')` (so bundlers and vitest see the edge);
 * `loader` names, for the error of a `get()` too early, the function that loads it.
 */
export function lazyModule<T>(name: string, importer: () => Promise<T>, loader: string): LazyModule<T> {
  let loaded: T | undefined;
  let loading: Promise<T> | undefined;
  return {
    load() {
      loading ??= importer().then((m) => {
        loaded = m;
        return m;
      });
      return loading;
    },
    get() {
      if (loaded === undefined) {
        throw new InternalError(
          `${name} is loaded on first use and was used before it loaded: await ${loader} first.`,
          { module: name },
        );
      }
      return loaded;
    },
  };
}
