/**
 * What the two esbuild builds share (scripts/build-cli.mjs, scripts/build-cjs.mjs): the package
 * root, its dependencies and which of them each build bundles, esbuild itself (a devDependency,
 * with a clear message when it is missing) and a write that a reader never sees half done.
 */
import { readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The package root, as a file URL ending in `/`. */
export const root = new URL('..', import.meta.url);

/**
 * The dependencies each build carries in its own files; the others load from node_modules.
 * `esm` (dist/bin/, decision 0216): none. `cjs` (dist/cjs/, decision 0060): @faker-js/faker ships
 * ES modules only, which a CommonJS loader cannot require; fast-xml-parser and yaml ship CommonJS,
 * but src imports them lazily with `import()`, which a CommonJS test runner without
 * `--experimental-vm-modules` refuses, and bundled esbuild turns those into synchronous requires.
 */
export const BUNDLED = {
  esm: new Set(['hono', '@hono/node-server']),
  cjs: new Set(['@faker-js/faker', 'fast-xml-parser', 'yaml']),
};

/** The names of package.json's `dependencies`. */
export async function dependencies() {
  const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
  return Object.keys(pkg.dependencies);
}

const require = createRequire(import.meta.url);

/** esbuild, or the process ends saying how to get it (`script` names the build in the message). */
export function loadEsbuild(script) {
  try {
    return require('esbuild');
  } catch {
    console.error(
      `${script}: esbuild is not installed (a devDependency). Run \`npm install\` in the checkout first.`,
    );
    process.exit(1);
  }
}

/** Writes `contents` beside `path` and renames it into place: a reader gets the old file or the new. */
export async function writeWhole(path, contents) {
  const aside = `${path}.${process.pid}.tmp`;
  await writeFile(aside, contents);
  await rename(aside, path);
}
