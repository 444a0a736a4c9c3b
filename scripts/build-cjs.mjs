#!/usr/bin/env node
/**
 * The CommonJS build of the test-time surface (decision 0060): `src/index.ts` (startEmulator, the
 * admin client, verifyReceiver, …) bundled by esbuild into `dist/cjs/index.cjs`, for test runners
 * that load test files as CommonJS and cannot `require()` an ES module (Jest's default mode).
 * The CLI and the ES entries are `dist/bin/` (scripts/build-cli.mjs, decisions 0161, 0216).
 *
 * Dependencies that ship CommonJS stay external (one copy in node_modules); BUNDLED.cjs
 * (scripts/esbuild-tool.mjs) says which are bundled and why.
 * `import.meta.url` becomes the bundle's own file URL: the bundle sits at `dist/cjs/`, the same depth
 * below the package root as the ESM modules that read `../../package.json` and `../../ui/`.
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { BUNDLED, dependencies, loadEsbuild, root, writeWhole } from './esbuild-tool.mjs';

const esbuild = loadEsbuild('build-cjs');
const external = (await dependencies()).filter((d) => !BUNDLED.cjs.has(d));

const out = new URL('dist/cjs/index.cjs', root).pathname;
const result = await esbuild.build({
  entryPoints: [new URL('src/index.ts', root).pathname],
  outfile: out,
  write: false,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  external: external.flatMap((d) => [d, `${d}/*`]),
  define: { 'import.meta.url': '__reportboModuleUrl' },
  banner: { js: "const __reportboModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
  legalComments: 'eof',
  // Whitespace and syntax only, as the CLI bundle (scripts/build-cli.mjs): names stay as written.
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
});
// Written aside, then renamed: a test packing the package meanwhile never reads half a file.
await mkdir(new URL('dist/cjs/', root), { recursive: true });
await writeWhole(out, result.outputFiles[0].contents);
// Types: the declarations tsc wrote for the two entries and the files they import, copied as .d.cts
// files whose relative imports name .cjs files; the only set the package ships (both conditions).
// A .d.cts that re-exported `../index.js` would point a CommonJS consumer at an ES module's
// declarations (`"type": "module"`), which TypeScript refuses with TS1479 under node16/nodenext
// resolution unless skipLibCheck hides it (issue 27 §4; test/packed-install.package.test.ts checks it).
const dist = new URL('dist/', root).pathname;
const types = join(dist, 'cjs/types');
await rm(types, { recursive: true, force: true });
for (const file of declarations([join(dist, 'index.d.ts'), join(dist, 'programmatic/index.d.ts')])) {
  const text = await readFile(file, 'utf8');
  const target = join(types, relative(dist, file).replace(/\.d\.ts$/, '.d.cts'));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text.replace(/(['"])(\.{1,2}\/[^'"]*?)\.js\1/g, '$1$2.cjs$1'));
}
await writeFile(new URL('dist/cjs/index.d.cts', root), "export * from './types/index.cjs';\n");
console.log('build-cjs: wrote dist/cjs/index.cjs and its .d.cts declarations');

/** `entries` and every `.d.ts` they import, directly or not. */
function declarations(entries) {
  const found = new Set();
  const next = [...entries];
  while (next.length > 0) {
    const file = next.pop();
    if (found.has(file)) continue;
    found.add(file);
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(
      /(?:from|import\()\s*['"](\.{1,2}\/[^'"]+)\.js['"]/g,
    ))
      next.push(join(dirname(file), `${spec}.d.ts`));
  }
  return [...found];
}
