/**
 * What the two esbuild builds share (scripts/build-cli.mjs, scripts/build-cjs.mjs): the package
 * root, esbuild itself (a devDependency, with a clear message when it is missing) and a write that
 * a reader never sees half done.
 */
import { rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

/** The package root, as a file URL ending in `/`. */
export const root = new URL('..', import.meta.url);

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
