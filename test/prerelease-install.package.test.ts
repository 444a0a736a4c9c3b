/**
 * A prerelease of both packages installs together (issue 42): the two packed tarballs, set to a
 * made-up prerelease version as `npm version` sets a release candidate (docs/releasing.md), go into
 * an empty project with `npm install` and no ERESOLVE. The Testcontainers module's peer range on
 * reportbo-emulator was `>=0.1.0`, which npm never lets a prerelease satisfy; its `version` script
 * (packages/testcontainers/scripts/peer-range.mjs) now keeps it on the module's own line.
 */
import { cp, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pack, ROOT, run, testcontainersMissing, userProject } from './helpers/packed.js';

const MODULE_DIR = join(ROOT, 'packages/testcontainers');
const CANDIDATE = '0.99.0-rc.7';
const missing = testcontainersMissing();
if (missing) console.log(`prerelease install test skipped: ${missing}`);
if (process.env.CI === 'true' && missing) throw new Error(missing);

let work: string;
beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'prerelease-'));
}, 60_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

/** Sets `version` in a packed tarball as `npm version` would have before packing; answers the new tarball. */
async function retag(tarball: string, name: string, version: string): Promise<string> {
  const dir = join(work, `${name}-src`);
  await mkdir(dir, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', dir]);
  const pkg = join(dir, 'package');
  await run('npm', ['version', version, '--no-git-tag-version', '--ignore-scripts', '--allow-same-version'], {
    cwd: pkg,
  });
  if (name === 'module') {
    // The module's `version` lifecycle script, run on the unpacked copy (its scripts/ is not packed).
    await run(process.execPath, [join(MODULE_DIR, 'scripts/peer-range.mjs'), pkg]);
  }
  const out = join(work, `${name}-${version}.tgz`);
  await run('tar', ['-czf', out, '-C', dir, 'package']);
  return out;
}

describe.skipIf(missing)('a prerelease of both packages', () => {
  it('`npm version` on the module sets its peer range to its own line', async () => {
    // The module's manifest and scripts where the release step finds them: a workspace of the
    // repository, whose root lockfile repeats the module's peer ranges.
    const repo = join(work, 'repo');
    const copy = join(repo, 'packages/testcontainers');
    await mkdir(copy, { recursive: true });
    await cp(join(ROOT, 'package-lock.json'), join(repo, 'package-lock.json'));
    await cp(join(MODULE_DIR, 'package.json'), join(copy, 'package.json'));
    await cp(join(MODULE_DIR, 'scripts'), join(copy, 'scripts'), { recursive: true });
    await run('npm', ['version', CANDIDATE, '--no-git-tag-version'], { cwd: copy });
    const manifest = JSON.parse(await readFile(join(copy, 'package.json'), 'utf8'));
    expect(manifest.version).toBe(CANDIDATE);
    expect(manifest.peerDependencies['reportbo-emulator']).toBe('>=0.99.0-0');
    // `npm ci` wants the root lockfile's entry of the workspace to agree with its manifest.
    const lock = JSON.parse(await readFile(join(repo, 'package-lock.json'), 'utf8'));
    expect(lock.packages['packages/testcontainers'].peerDependencies['reportbo-emulator']).toBe('>=0.99.0-0');
  });

  it('installs from the two packed tarballs with npm install, each at the candidate version', async () => {
    const tarballs = join(work, 'packed');
    await mkdir(tarballs);
    // The module's own build (ES module and CommonJS), as its prepack runs it.
    await run(process.execPath, [join(MODULE_DIR, 'scripts/build.mjs')], {
      cwd: MODULE_DIR,
      timeout: 300_000,
    });
    const main = await retag(await pack(tarballs), 'main', CANDIDATE);
    const module = await retag(await pack(tarballs, MODULE_DIR), 'module', CANDIDATE);
    const { project } = await userProject([main, module, 'testcontainers@11']);
    for (const name of ['reportbo-emulator', 'reportbo-emulator-testcontainers']) {
      const installed = JSON.parse(
        await readFile(join(project, 'node_modules', name, 'package.json'), 'utf8'),
      );
      expect(installed.version, name).toBe(CANDIDATE);
    }
    const { stdout } = await run('npm', ['ls', '--json', '--depth', '0'], { cwd: project });
    const tree = JSON.parse(stdout) as { problems?: string[] };
    expect(tree.problems ?? []).toEqual([]);
  }, 600_000);
});
