#!/usr/bin/env node
/**
 * The CommonJS build of the test-time surface (decision 0060): `src/index.ts` (startEmulator, the
 * admin client, verifyReceiver, …) bundled by esbuild into `dist/cjs/index.cjs`, for test runners
 * that load test files as CommonJS and cannot `require()` an ES module (Jest's default mode).
 * The server entry and the CLI stay ES modules (`dist/main.js`, `bin/`).
 *
 * Dependencies that ship CommonJS stay external (one copy in node_modules); ES-only ones
 * (@faker-js/faker) are bundled, because a CommonJS loader cannot require them, and so are the ones
 * src imports lazily (see BUNDLED).
 * `import.meta.url` becomes the bundle's own file URL: the bundle sits at `dist/cjs/`, the same depth
 * below the package root as the ESM modules that read `../../package.json` and `../../ui/`.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const root = new URL('..', import.meta.url);
const require = createRequire(import.meta.url);
let esbuild;
try {
  esbuild = require('esbuild');
} catch {
  console.error(
    'build-cjs: esbuild is not installed (a devDependency). Run `npm install` in the checkout first.',
  );
  process.exit(1);
}

const pkg = JSON.parse(await readFile(new URL('package.json', root), 'utf8'));
// fast-xml-parser ships CommonJS too, but src imports it lazily with `import()`, which
// a CommonJS test runner without `--experimental-vm-modules` refuses: bundled, esbuild turns those
// into synchronous requires inside the bundle.
const BUNDLED = new Set(['@faker-js/faker', 'fast-xml-parser']);
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
  logLevel: 'warning',
});
// Written aside, then renamed: a test packing the package meanwhile never reads half a file.
await mkdir(new URL('dist/cjs/', root), { recursive: true });
await writeFile(`${out}.${process.pid}.tmp`, result.outputFiles[0].contents);
await rename(`${out}.${process.pid}.tmp`, out);
// Types: the same declarations as the ES entry; a .d.cts names them for CommonJS consumers.
await writeFile(new URL('dist/cjs/index.d.cts', root), "export * from '../index.js';\n");
console.log('build-cjs: wrote dist/cjs/index.cjs');
