/**
 * The package as a user gets it (decision 0060): `npm pack` of this checkout (after the CommonJS
 * build), installed into an empty project, and tools a user's project would have (Jest 29, Jest 30)
 * installed once into a cache folder that later runs reuse (TOOL_CACHE).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

/** The Testcontainers module's folder: an npm workspace of the root, installed by the root's `npm ci`. */
export const TESTCONTAINERS_DIR = join(ROOT, 'packages/testcontainers');

/** Why the Testcontainers module's tests cannot run here (testcontainers not installed), or undefined. */
export function testcontainersMissing(): string | undefined {
  try {
    createRequire(join(TESTCONTAINERS_DIR, 'package.json')).resolve('testcontainers');
    return undefined;
  } catch {
    return 'testcontainers is not installed: run npm ci at the repository root (packages/testcontainers is its workspace)';
  }
}

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

/**
 * Runs the test file `file` of `project` with Jest `major` (installed once into TOOL_CACHE) in its
 * default CommonJS mode; answers how many of its tests passed and failed, and what Jest printed on
 * stderr (to name a failure).
 */
export async function runJest(
  major: number,
  project: string,
  file: string,
  options: { timeout: number; env?: Record<string, string> },
): Promise<{ passed: number; failed: number; stderr: string; jest: string }> {
  const jestDir = await cachedTool(`jest-${major}`, `jest@${major}`, 'jest/bin/jest.js');
  const jest = join(jestDir, 'node_modules/jest/bin/jest.js');
  const result = await run(
    process.execPath,
    [jest, '--ci', '--rootDir', project, '--testMatch', `**/${file}`, '--json'],
    { cwd: project, timeout: options.timeout, env: { ...process.env, ...options.env } },
  ).catch((err: { stdout: string; stderr: string }) => err);
  const report = JSON.parse(result.stdout) as { numPassedTests: number; numFailedTests: number };
  return { passed: report.numPassedTests, failed: report.numFailedTests, stderr: result.stderr, jest };
}

/** Compiler options of a user's project. */
export const USER_TSCONFIG = {
  /** An ES module (or `.cts`) project on NodeNext resolution, library declarations not checked. */
  nodeNext: {
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    target: 'ES2022',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
  },
  /**
   * A CommonJS project (no "type": "module") on node16 resolution with every declaration file of
   * its packages checked (skipLibCheck off), as a strict consumer's set-up has it.
   */
  strictNode16: {
    module: 'node16',
    moduleResolution: 'node16',
    target: 'ES2022',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
  },
} as const;

/**
 * Type-checks `source`, written as `file` into `project`, with this checkout's TypeScript and
 * `compilerOptions` (its own tsconfig, `tsconfig.<file>.json`); answers what tsc printed: '' when
 * it passed, its errors otherwise.
 */
export async function typeCheck(
  project: string,
  file: string,
  source: string,
  compilerOptions: Record<string, unknown>,
): Promise<string> {
  const config = `tsconfig.${file}.json`;
  await writeFile(join(project, config), JSON.stringify({ compilerOptions, files: [file] }));
  await writeFile(join(project, file), source);
  const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
  const result = await run(process.execPath, [tsc, '-p', config], { cwd: project }).catch(
    (e: { stdout: string }) => e,
  );
  return result.stdout;
}
