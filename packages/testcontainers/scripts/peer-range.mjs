#!/usr/bin/env node
/**
 * Sets this module's peer range on reportbo-emulator to its own release line: `>=X.Y.Z-0` for
 * version X.Y.Z or any prerelease X.Y.Z-…. npm admits a prerelease into a range only when a
 * comparator names the same X.Y.Z with a prerelease tag, so `>=0.1.0` refused 0.2.0-rc.1 and a
 * candidate of both packages did not install together (ERESOLVE). `-0` is the lowest prerelease:
 * the range takes every candidate of the line, its release, and every later stable version.
 *
 * Runs as the module's `version` script, so `npm version X --prefix packages/testcontainers`
 * (docs/releasing.md) updates it; `node scripts/peer-range.mjs DIR` applies it to DIR/package.json.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? process.cwd();
const file = join(dir, 'package.json');
const manifest = JSON.parse(readFileSync(file, 'utf8'));
const line = /^(\d+\.\d+\.\d+)(?:-[0-9A-Za-z.-]+)?$/.exec(manifest.version ?? '')?.[1];
if (!line) {
  console.error(`peer-range: ${file} has version "${manifest.version}", not X.Y.Z or X.Y.Z-pre`);
  process.exit(1);
}
const range = `>=${line}-0`;
manifest.peerDependencies = { ...manifest.peerDependencies, 'reportbo-emulator': range };
writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
// The lockfile repeats the root's peer ranges; `npm ci` wants the two to agree.
const lockFile = join(dir, 'package-lock.json');
if (existsSync(lockFile)) {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8'));
  const root = lock.packages?.[''];
  if (root?.peerDependencies) {
    root.peerDependencies['reportbo-emulator'] = range;
    writeFileSync(lockFile, `${JSON.stringify(lock, null, 2)}\n`);
  }
}
// In the repository the module is a workspace of the root, whose lockfile repeats it too.
const rootLock = join(dir, '..', '..', 'package-lock.json');
if (existsSync(rootLock)) {
  const lock = JSON.parse(readFileSync(rootLock, 'utf8'));
  const entry = lock.packages?.['packages/testcontainers'];
  if (entry?.name === manifest.name && entry.peerDependencies) {
    entry.peerDependencies['reportbo-emulator'] = range;
    writeFileSync(rootLock, `${JSON.stringify(lock, null, 2)}\n`);
  }
}
console.log(`peer-range: reportbo-emulator ${range} (version ${manifest.version})`);
