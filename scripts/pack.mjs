#!/usr/bin/env node
/**
 * `npm run pack:tarball [-- --out DIR] [-- --no-build]`: the package as a tarball whose package.json
 * carries no `prepare` script (decision 0132).
 *
 * `prepare` builds a git install (npm clones the repository and runs it), so the repository keeps
 * it. A tarball carries the build already, yet npm 11 lists the `prepare` of any package installed
 * from outside the registry among the "install scripts not yet covered by allowScripts" on every
 * install. So the tarball is packed from a staging copy: the files `npm pack` would take (the
 * `files` list), with the manifest less `prepare`. Prints the tarball's path.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = resolve(outAt === -1 ? ROOT : (args[outAt + 1] ?? ''));
const unknown = args.filter((a, i) => a !== '--no-build' && a !== '--out' && i !== outAt + 1);
if (unknown.length > 0 || (outAt !== -1 && args[outAt + 1] === undefined)) {
  process.stderr.write(`usage: node scripts/pack.mjs [--out DIR] [--no-build] (got ${args.join(' ')})\n`);
  process.exit(2);
}

const npm = (cwd, ...npmArgs) => execFileSync('npm', npmArgs, { cwd, encoding: 'utf8' });
if (!args.includes('--no-build')) {
  execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  execFileSync('npm', ['run', 'build:cjs'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

const [{ files }] = JSON.parse(npm(ROOT, 'pack', '--dry-run', '--json', '--ignore-scripts'));
const stage = mkdtempSync(join(tmpdir(), 'reportbo-pack-'));
try {
  for (const { path } of files) {
    mkdirSync(dirname(join(stage, path)), { recursive: true });
    copyFileSync(join(ROOT, path), join(stage, path));
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  delete manifest.scripts.prepare;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  mkdirSync(out, { recursive: true });
  const [{ filename }] = JSON.parse(
    npm(stage, 'pack', '--json', '--ignore-scripts', '--pack-destination', out),
  );
  process.stdout.write(`${join(out, filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
