/**
 * A module loaded on first use instead of at start-up. Request handlers `await load()`; code that
 * must stay synchronous (a getter of the public `Emulator` interface) calls `get()`, which falls
 * back to `require` of the ES module (synchronous since Node 20.19, the version this package needs).
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
