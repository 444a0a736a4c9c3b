import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The repository root; the real CLI runs from here by default. */
export const ROOT = new URL('../../', import.meta.url).pathname;
/** The package's bin entry (loads the built dist/: run `npm run build` first, as `npm test` does). */
export const BIN = join(ROOT, 'bin/reportbo-emulator.js');

/** What one CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/**
 * Runs the real CLI (`node bin/reportbo-emulator.js …`) to completion; with `limitMs`, killed
 * (SIGKILL) after that long, for a run that a bug could make wait for hours.
 */
export function runCli(
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  limitMs?: number,
): Promise<CliRun> {
  return runProcess(process.execPath, [BIN, ...args], env, cwd, limitMs);
}

/** Runs `command` with `args` to completion, as runCli runs the CLI. */
export function runProcess(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd = ROOT,
  limitMs?: number,
): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(command, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'pipe',
    ...(limitMs === undefined ? {} : { timeout: limitMs, killSignal: 'SIGKILL' as const }),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - started }));
  });
}

/**
 * Runs the CLI's `main()` in this process, as `bin/reportbo-emulator.js` would, and captures what it
 * wrote to stdout and stderr. For the many usage refusals (exit 2 and a message) that need not pay
 * a process start each (~0.8 s of CPU: the CLI imports the whole program); every command keeps at
 * least one refusal through the real CLI (`runCli`). Only for runs that end by themselves: a `serve`
 * refused at start, never one that listens. `env` is set on process.env for the call. Tests of a
 * file run one at a time, so the capture sees only this call.
 */
export async function runMain(
  args: string[],
  env: Record<string, string> = {},
): Promise<Omit<CliRun, 'wallMs'>> {
  const { main } = await import('../../src/main.js');
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  let stdout = '';
  let stderr = '';
  const out = process.stdout.write;
  const err = process.stderr.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    stdout += chunk.toString();
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    const code = await main(args);
    return { code, stdout, stderr };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
