/**
 * Clean-up that helpers register once, when first imported, and that runs for every test file that
 * imports them: after each test (`afterEachTest`) or when the file ends (`atFileEnd`). The hooks
 * themselves are registered per file by test/setup/file-hooks.ts (a vitest setup file, run before
 * each test file even where files share one module graph, `isolate: false`). A helper that called
 * `afterEach` at its top level instead would register it only in the first file of a shared graph
 * to import it.
 */
type CleanUp = () => unknown;

const eachTest: CleanUp[] = [];
const fileEnd: CleanUp[] = [];

/** Runs `fn` after every test of every file (last registered first, as vitest runs after-hooks). */
export function afterEachTest(fn: CleanUp): void {
  eachTest.push(fn);
}

/** Runs `fn` when each test file ends (last registered first). */
export function atFileEnd(fn: CleanUp): void {
  fileEnd.push(fn);
}

async function runAll(fns: CleanUp[]): Promise<void> {
  for (const fn of [...fns].reverse()) await fn();
}

/** For test/setup/file-hooks.ts. */
export const runAfterEachTest = () => runAll(eachTest);
/** For test/setup/file-hooks.ts. */
export const runAtFileEnd = () => runAll(fileEnd);
