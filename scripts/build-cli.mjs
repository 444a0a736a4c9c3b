#!/usr/bin/env node
/**
 * The CLI as one ES module graph (decision 0161): `src/main.ts` and every dependency it loads,
 * bundled by esbuild into `dist/bin/` (`main.js` and the chunks it imports lazily), which
 * `bin/reportbo-emulator.js` runs. Node 20 resolves, reads and links each module of an ES graph on
 * its own: the CLI's ~130 modules and its dependencies' several hundred cost a `serve` 0.9 CPU-s
 * to start, the bundle 0.6 s. `npm run build` runs this after `tsc`; the library entries
 * (`dist/index.js`, `dist/programmatic/`, `dist/cjs/`) stay as they are.
 *
 * `import.meta.url` stays each chunk's own file URL: the chunks sit in `dist/bin/`, two levels below
 * the package root like the compiled modules that read `../../package.json` and `../../ui/`.
 * CommonJS dependencies (undici, node-forge, pino) call `require`: the banner gives every chunk one.
 *
 * Files are written aside and renamed, and only files the build no longer makes are removed
 * afterwards: a CLI started while the build runs reads either the old files or the new ones, never
 * a half-written chunk.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { loadEsbuild, root, writeWhole } from './esbuild-tool.mjs';

const esbuild = loadEsbuild('build-cli');
const outdir = new URL('dist/bin/', root).pathname;
const result = await esbuild.build({
  entryPoints: [new URL('src/main.ts', root).pathname],
  outdir,
  write: false,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  banner: {
    js: "import { createRequire as __reportboCreateRequire } from 'node:module'; const require = __reportboCreateRequire(import.meta.url);",
  },
  legalComments: 'eof',
  // Whitespace and syntax only: names stay as written, so stack traces and error names read as the
  // source. The bundle shrinks 4.5 → 3.2 MB; a `run` of scenarios/02-void.yaml costs the same CPU
  // (median 1.18 s against 1.15 s of 6 alternating runs, load 11–14, 2026-11-28).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
// esbuild answers an `import()` of a CommonJS package with a chunk that exports only `default`
// (`export default require_x()`), so `(await import('yaml')).parse` is undefined in the bundle
// while it works unbundled. Such an import goes through a module of ours (src/config/yaml-parse.ts).
const lost = result.outputFiles.filter((f) =>
  /(?:^|[;}\n])export default require_\w+\(\);?(?:$|\n)/.test(f.text),
);
if (lost.length > 0) {
  console.error(
    `build-cli: ${lost.map((f) => basename(f.path)).join(', ')}: an import() of a CommonJS package, whose named exports the bundle drops.\n` +
      'Import the package statically from a module of ours and import() that module instead (see src/config/yaml-parse.ts).',
  );
  process.exit(1);
}
await mkdir(outdir, { recursive: true });
const made = new Set();
for (const file of result.outputFiles) {
  made.add(basename(file.path));
  await writeWhole(file.path, file.contents);
}
for (const name of await readdir(outdir)) {
  if (!made.has(name) && !name.endsWith('.tmp')) await rm(join(outdir, name), { force: true });
}
console.log(`build-cli: wrote dist/bin/ (${made.size} files)`);
