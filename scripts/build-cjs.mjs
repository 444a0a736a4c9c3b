#!/usr/bin/env node
/**
 * The CommonJS build of the test-time surface (decision 0060): `src/index.ts` (startEmulator, the
 * admin client, verifyReceiver, …) bundled by esbuild into `dist/cjs/index.cjs`, for test runners
 * that load test files as CommonJS and cannot `require()` an ES module (Jest's default mode).
 * The CLI stays an ES module (`dist/bin/`, bundled by scripts/build-cli.mjs, decision 0161).
 *
 * Dependencies that ship CommonJS stay external (one copy in node_modules); ES-only ones
 * (@faker-js/faker) are bundled, because a CommonJS loader cannot require them, and so are the ones
 * src imports lazily (see BUNDLED).
 * `import.meta.url` becomes the bundle's own file URL: the bundle sits at `dist/cjs/`, the same depth
 * below the package root as the ESM modules that read `../../package.json` and `../../ui/`.
 */
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { loadEsbuild, root, writeWhole } from './esbuild-tool.mjs';

const esbuild = loadEsbuild('build-cjs');
const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
// fast-xml-parser ships CommonJS too, but src imports it lazily with `import()`, which
// a CommonJS test runner without `--experimental-vm-modules` refuses: bundled, esbuild turns those
// into synchronous requires inside the bundle.
// yaml likewise: the config loader imports it lazily (startEmulator({ config: 'x.yaml' })).
const BUNDLED = new Set(['@faker-js/faker', 'fast-xml-parser', 'yaml']);
const external = Object.keys(pkg.dependencies).filter((d) => !BUNDLED.has(d));

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
// Types: the ES entry's declarations, copied as .d.cts files whose relative imports name .cjs files.
// A .d.cts that re-exported `../index.js` would point a CommonJS consumer at an ES module's
// declarations (`"type": "module"`), which TypeScript refuses with TS1479 under node16/nodenext
// resolution unless skipLibCheck hides it (issue 27 §4; test/packed-install.package.test.ts checks it).
const dist = new URL('dist/', root).pathname;
const types = join(dist, 'cjs/types');
await rm(types, { recursive: true, force: true });
for (const file of await declarations(dist)) {
  const text = await readFile(file, 'utf8');
  const target = join(types, relative(dist, file).replace(/\.d\.ts$/, '.d.cts'));
  await mkdir(dirname(target), { recursive: true });
  await writeFile(target, text.replace(/(['"])(\.{1,2}\/[^'"]*?)\.js\1/g, '$1$2.cjs$1'));
}
await writeFile(new URL('dist/cjs/index.d.cts', root), "export * from './types/index.cjs';\n");
console.log('build-cjs: wrote dist/cjs/index.cjs and its .d.cts declarations');

/** Every `.d.ts` under `dir` but dist/cjs. */
async function declarations(dir) {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.d.ts'))
    .map((e) => join(e.parentPath, e.name))
    .filter((f) => !relative(dir, f).startsWith('cjs/'));
}
