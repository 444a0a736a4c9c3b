#!/usr/bin/env node
/**
 * The ES modules the package runs, as one module graph (decisions 0161, 0216): the CLI
 * (`src/main.ts`) and the two library entries (`src/index.ts`, `src/programmatic/index.ts`) bundled
 * together by esbuild into `dist/bin/`: `main.js`, `index.js`, `start.js` and the chunks they share,
 * so the CLI and the library ship one copy of the code. `bin/reportbo-emulator.js` runs `main.js`;
 * package.json's `import` conditions name `index.js` and `start.js`, typed by the CommonJS build's
 * declarations (`index.d.ts`, `start.d.ts` here re-export them; scripts/build-cjs.mjs).
 *
 * Node 20 resolves, reads and links each module of an ES graph on its own: the CLI's ~130 modules
 * in one graph cost a `serve` 0.9 CPU-s to start unbundled, 0.6 s bundled. Dependencies in
 * BUNDLED go into the chunks too: each is an ES package of many files whose loading a start pays
 * (decision 0216 measured each); the others load from node_modules, where npm installs them anyway.
 *
 * `import.meta.url` stays each chunk's own file URL: the chunks sit in `dist/bin/`, two levels below
 * the package root like the compiled modules that read `../../package.json` and `../../ui/`.
 * A bundled CommonJS module calls `require`: the banner gives every chunk one.
 *
 * Files are written aside and renamed, and only files the build no longer makes are removed
 * afterwards: a CLI started while the build runs reads either the old files or the new ones, never
 * a half-written chunk.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { BUNDLED, dependencies, loadEsbuild, root, writeWhole } from './esbuild-tool.mjs';

const esbuild = loadEsbuild('build-cli');
const outdir = new URL('dist/bin/', root).pathname;
const external = (await dependencies()).filter((d) => !BUNDLED.esm.has(d));
const result = await esbuild.build({
  entryPoints: {
    main: new URL('src/main.ts', root).pathname,
    index: new URL('src/index.ts', root).pathname,
    start: new URL('src/programmatic/index.ts', root).pathname,
  },
  outdir,
  write: false,
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  external: external.flatMap((d) => [d, `${d}/*`]),
  banner: {
    js: "import { createRequire as __reportboCreateRequire } from 'node:module'; const require = __reportboCreateRequire(import.meta.url);",
  },
  legalComments: 'eof',
  // Whitespace and syntax only: names stay as written, so stack traces and error names read as the
  // source (decision 0170).
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
// esbuild answers an `import()` of a bundled CommonJS package with a chunk that exports only
// `default` (`export default require_x()`), so `(await import('yaml')).parse` would be undefined in
// the bundle while it works unbundled. Such an import goes through a module of ours
// (src/config/yaml-parse.ts).
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
// The library entries' types: the CommonJS build's declarations, one set for both conditions.
const types = [
  { name: 'index.d.ts', contents: "export * from '../cjs/index.cjs';\n" },
  { name: 'start.d.ts', contents: "export * from '../cjs/types/programmatic/index.cjs';\n" },
];
await mkdir(outdir, { recursive: true });
const made = new Set();
for (const file of result.outputFiles) {
  made.add(basename(file.path));
  await writeWhole(file.path, file.contents);
}
for (const { name, contents } of types) {
  made.add(name);
  await writeWhole(join(outdir, name), contents);
}
for (const name of await readdir(outdir)) {
  if (!made.has(name) && !name.endsWith('.tmp')) await rm(join(outdir, name), { force: true });
}
console.log(`build-cli: wrote dist/bin/ (${made.size} files)`);
