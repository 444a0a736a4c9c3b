/**
 * A module loaded on first use instead of at start-up: the one mechanism that keeps the admin API
 * (`app.ts`) and the reservation and delivery services (`emulator.ts`) off the path to the first
 * GetAccessToken. Request handlers `await load()`; code that must stay synchronous (a getter of the
 * public `Emulator` interface, building the emulator with preloaded credentials) calls `get()`,
 * which falls back to `require` of the ES module (synchronous since Node 20.19, which this package
 * needs).
 *
 * What it buys (issue 14; import time on top of `dist/server.js`, medians of 8 fresh processes on
 * the 2-core bench machine): the delivery engine (undici) ~45 ms, the reservation lifecycle (the
 * generator, the contract schema) ~18 ms, the admin routes beyond those ~6 ms — ~70 ms of a cold
 * start of ~250 ms. The admin routes alone would not pass the 10 ms bar, but they import the
 * delivery engine, so they stay behind the same lazy load. Removed: a second mechanism (a lazily
 * built sub-app that passed unmatched requests on through a WeakSet); cold start unchanged (263.6
 * before, 263.3 ms after: medians of 30 alternating runs). `needsDeliveryAtCreation` stays: it is
 * not a speed-up (start needs the engine either way) but makes `startServer` import it before
 * building an emulator with preloaded credentials, so the synchronous `require` is only the
 * fallback of plain `createEmulator` on the built package (it cannot load the TypeScript sources
 * tests run).
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export interface LazyModule<T> {
  /** Imports the module once; every call answers the same promise. */
  load(): Promise<T>;
  /** The module now: the one `load()` brought, or a synchronous require of `url`. */
  get(): T;
}

/**
 * `importer` must be a literal `() => import('./x.js')` (so bundlers and vitest see the edge);
 * `url` names the same module for the synchronous path.
 */
export function lazyModule<T>(importer: () => Promise<T>, url: URL): LazyModule<T> {
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
      loaded ??= createRequire(url)(fileURLToPath(url)) as T;
      return loaded;
    },
  };
}
