#!/usr/bin/env node
/**
 * Builds reportbo-emulator-testcontainers: the ES module and its declarations with tsc (dist/), then
 * the CommonJS build with esbuild (dist/cjs/index.cjs) and its CommonJS declarations
 * (dist/cjs/index.d.cts), for test runners that load test files as CommonJS (Jest's default mode),
 * as the main package does (scripts/build-cjs.mjs at the repository root, decision 0060).
 * Both tools and testcontainers' own types come from the repository root's `npm ci` (this folder is
 * its npm workspace; docs/testcontainers.md "Building the module").
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';

const here = new URL('..', import.meta.url);
const root = new URL('../../', here);
const path = (url) => new URL(url).pathname;
for (const what of ['testcontainers', 'typescript', 'esbuild']) {
  if (!existsSync(new URL(`node_modules/${what}/`, root))) {
    console.error(
      `build: ${what} is not installed (${path(root)}node_modules); run npm ci at the repository root first.`,
    );
    process.exit(1);
  }
}

execFileSync(process.execPath, [path(new URL('node_modules/typescript/bin/tsc', root)), '-p', path(here)], {
  // stdout and stderr both to stderr: `npm pack --json` prints its JSON on stdout after prepack.
  stdio: ['ignore', 2, 2],
});

const esbuild = createRequire(path(root))('esbuild');
const pkg = JSON.parse(await readFile(new URL('package.json', here), 'utf8'));
await mkdir(new URL('dist/cjs/', here), { recursive: true });
await esbuild.build({
  entryPoints: [path(new URL('src/index.ts', here))],
  outfile: path(new URL('dist/cjs/index.cjs', here)),
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20.19',
  // Peers and Node's own modules stay requires: one copy of testcontainers and of the emulator's
  // client in the user's node_modules (the emulator's own `require` condition gives its CommonJS build).
  external: Object.keys(pkg.peerDependencies).flatMap((d) => [d, `${d}/*`]),
  define: { 'import.meta.url': '__moduleUrl' },
  banner: { js: "const __moduleUrl = require('node:url').pathToFileURL(__filename).href;" },
  logLevel: 'warning',
});
// The declarations name only the peers and relative files: the same text as a CommonJS file.
const types = await readFile(new URL('dist/index.d.ts', here), 'utf8');
if (/from '\.\.?\//.test(types))
  throw new Error('build: dist/index.d.ts imports a relative file; copy it too');
await writeFile(new URL('dist/cjs/index.d.cts', here), types);
console.error('build: wrote dist/ (ES module) and dist/cjs/index.cjs with index.d.cts (CommonJS)');
