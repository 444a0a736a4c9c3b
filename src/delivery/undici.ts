import { createRequire } from 'node:module';

type Undici = typeof import('undici');
let loaded: Undici | undefined;

/**
 * undici, loaded when the first pool or connector is made: a start that delivers nothing (a `serve`
 * answering tokens, `--version`, `verify-client`) does not read its ~130 files (a quarter of a
 * `serve` start's instructions; docs/perf-budget.md). A CommonJS package, so `require` gives it at
 * once, the same instance an `import` would.
 */
export function undici(): Undici {
  loaded ??= createRequire(import.meta.url)('undici') as Undici;
  return loaded;
}
