/**
 * A real Docker engine for the tests that build and run the image (decision 0063): the one
 * DOCKER_HOST names, else the developer sandbox's (`../shared/tools/docker-sandbox`, socket
 * /run/docker-sandbox.sock), else the docker CLI's default (a GitHub runner's). Without one those tests are skipped with the reason printed; in CI
 * (CI=true) with the sandbox tool present they fail instead, so a broken engine cannot pass unseen.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const ROOT = new URL('../../', import.meta.url).pathname.replace(/\/$/, '');
/** The sandbox tool beside the checkout (`../shared/tools`), or beside a worktree's parent folder. */
const SANDBOX_TOOL =
  ['../shared/tools/docker-sandbox', '../../shared/tools/docker-sandbox']
    .map((p) => join(ROOT, p))
    .find((p) => existsSync(p)) ?? join(ROOT, '../shared/tools/docker-sandbox');
const SANDBOX_SOCKET = '/run/docker-sandbox.sock';

/** The environment docker commands run with, or why there is no engine. */
export type Engine = { env: NodeJS.ProcessEnv; skip?: undefined } | { skip: string; env?: undefined };

let found: Promise<Engine> | undefined;

/** Finds a reachable engine once per test file. */
export function dockerEngine(): Promise<Engine> {
  found ??= (async (): Promise<Engine> => {
    const host =
      process.env.DOCKER_HOST ?? (existsSync(SANDBOX_SOCKET) ? `unix://${SANDBOX_SOCKET}` : undefined);
    const env = { ...process.env, ...(host ? { DOCKER_HOST: host } : {}) };
    try {
      await run('docker', ['version', '--format', '{{.Server.Version}}'], { env, timeout: 15_000 });
      return { env };
    } catch (err) {
      const where =
        host ??
        "the docker CLI's default socket (DOCKER_HOST is not set, no sandbox socket /run/docker-sandbox.sock)";
      const why = `no Docker engine answers at ${where} (${(err as Error).message.split('\n')[0]})`;
      const reason = `${why}. Start one with ../shared/tools/docker-sandbox up and export its env.`;
      if (process.env.CI === 'true' && existsSync(SANDBOX_TOOL))
        throw new Error(`CI with the docker sandbox present must run the Docker tests: ${reason}`);
      return { skip: reason };
    }
  })();
  return found;
}

/** Runs a docker command on the engine; answers its stdout. */
export async function docker(engine: Engine, args: string[], timeoutMs = 60_000): Promise<string> {
  const { stdout } = await run('docker', args, { env: engine.env, timeout: timeoutMs, maxBuffer: 32 << 20 });
  return stdout;
}

/**
 * Builds `dockerfile` as `name:<hash of the sources>` unless that tag exists, and answers the tag.
 * The sandbox builds through its own tool (no BuildKit, host network); another engine with
 * `docker build`.
 */
export async function buildImage(
  engine: Engine,
  name: string,
  dockerfile: string,
  inputs: string[],
): Promise<string> {
  const hash = createHash('sha256');
  for (const file of [dockerfile, ...inputs].sort()) {
    hash.update(file);
    hash.update(readFileSync(join(ROOT, file)));
  }
  const tag = `${name}:test-${hash.digest('hex').slice(0, 12)}`;
  const present = async () => (await docker(engine, ['images', '-q', tag])).trim() !== '';
  if (await present()) return tag;
  // Test files run in parallel: one builds, the others wait for its tag (a folder is the lock).
  const lock = join(tmpdir(), `reportbo-image-build-${tag.replace(/[^\w.-]/g, '_')}.lock`);
  try {
    mkdirSync(lock);
  } catch {
    // A build takes minutes; a lock older than 15 minutes was left by a killed run.
    const stale = () => (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? 0) < Date.now() - 900_000;
    while (existsSync(lock) && !stale()) await new Promise((r) => setTimeout(r, 1000));
    if (existsSync(lock)) rmSync(lock, { recursive: true, force: true });
    if (await present()) return tag;
    return buildImage(engine, name, dockerfile, inputs);
  }
  try {
    await build(engine, tag, dockerfile);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  // Earlier test builds of this image are of no further use: untag them (an image in use stays).
  const tags = (await docker(engine, ['images', '--format', '{{.Repository}}:{{.Tag}}', name])).split('\n');
  for (const old of tags.filter((t) => t.startsWith(`${name}:test-`) && t !== tag))
    await docker(engine, ['rmi', old]).catch(() => {});
  return tag;
}

async function build(engine: Engine, tag: string, dockerfile: string): Promise<void> {
  const args = ['-f', dockerfile, '-t', tag, '.'];
  const started = performance.now();
  if (engine.env?.DOCKER_HOST === `unix://${SANDBOX_SOCKET}` && existsSync(SANDBOX_TOOL))
    await run(SANDBOX_TOOL, ['build', ...args], {
      cwd: ROOT,
      env: engine.env,
      timeout: 600_000,
      maxBuffer: 64 << 20,
    });
  else
    await run('docker', ['build', ...args], {
      cwd: ROOT,
      env: engine.env,
      timeout: 600_000,
      maxBuffer: 64 << 20,
    });
  console.log(`built ${tag} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

/** Source files the emulator image is built from (its tag changes when one of them does). */
export function emulatorImageInputs(): string[] {
  const out: string[] = [
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'docker/healthcheck.mjs',
  ];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (!entry.name.endsWith('.test.ts')) out.push(rel);
    }
  };
  for (const dir of ['src', 'bin', 'scenarios', 'ui']) walk(dir);
  return out;
}
