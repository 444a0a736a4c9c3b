/**
 * The package as a user gets it (decision 0060): `npm pack` of this checkout (after the CommonJS
 * build), installed into an empty project, and tools a user's project would have (Jest 29, Jest 30)
 * installed once into a cache folder that later runs reuse (TOOL_CACHE).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);
export const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
/**
 * Where installed tools are kept between runs: outside node_modules (`npm ci` empties it), in
 * ~/.cache/reportbo-emulator-tests, which .github/workflows/ci.yml caches; REPORTBO_TEST_TOOL_CACHE
 * moves it.
 */
export const TOOL_CACHE =
  process.env.REPORTBO_TEST_TOOL_CACHE ?? join(homedir(), '.cache/reportbo-emulator-tests');

/**
 * Packs `dir` into `dest`; answers the tarball's path. This package is packed as README's tarball
 * line packs it, by scripts/pack.mjs (a manifest without `prepare`, decision 0132), after `npm run
 * build:cjs` (`npm run build` ran in `pretest`); another one with `npm pack --ignore-scripts`.
 */
export async function pack(dest: string, dir = ROOT): Promise<string> {
  if (dir === ROOT) {
    await run(process.execPath, [join(ROOT, 'scripts/build-cjs.mjs')], { cwd: ROOT });
    const { stdout } = await run(process.execPath, [
      join(ROOT, 'scripts/pack.mjs'),
      '--no-build',
      '--out',
      dest,
    ]);
    return stdout.trim();
  }
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], {
    cwd: dir,
  });
  return join(dest, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
}

/** A new empty project in a temp folder with `packages` (tarballs or names) installed. */
export async function userProject(
  packages: string[],
  manifest: Record<string, unknown> = {},
): Promise<{ dir: string; project: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'packed-'));
  const project = join(dir, 'user-project');
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'user-project', private: true, ...manifest }),
  );
  // --prefer-offline: dependencies come from the npm cache when they are there.
  await run('npm', ['install', ...packages, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: project,
    timeout: 300_000,
  });
  return { dir, project };
}

/**
 * A folder holding `spec` (e.g. `jest@29`) installed from the registry, kept between runs; answers
 * the folder. A second run finds it installed and does not touch the network.
 */
export async function cachedTool(name: string, spec: string, bin: string): Promise<string> {
  const dir = join(TOOL_CACHE, name);
  if (existsSync(join(dir, 'node_modules', bin))) return dir;
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: `cache-${name}`, private: true }));
  const started = performance.now();
  await run('npm', ['install', spec, '--prefer-offline', '--no-audit', '--no-fund', '--no-save'], {
    cwd: dir,
    timeout: 300_000,
  });
  console.log(`installed ${spec} into ${dir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return dir;
}
