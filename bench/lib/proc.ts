/**
 * Child processes for benchmarks: spawned in their own process group with output to a log file
 * under bench/.work/logs, always stopped (SIGTERM, then SIGKILL) — also when the bench fails or is
 * interrupted — and helpers to wait for readiness without sleeping longer than needed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root and the scratch folder (gitignored) for logs, configs and profiles. */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WORK = join(ROOT, 'bench', '.work');

/** A folder under bench/.work, created when missing. */
export function workDir(...parts: string[]): string {
  const dir = join(WORK, ...parts);
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A spawned child: its pid, log file, exit and a stop that never throws. */
export interface Proc {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  readonly spawnedAt: number;
  /** Resolves with the exit code (or signal name) once the process ended. */
  readonly exited: Promise<number | string>;
  readonly child: ChildProcess;
  /** The log written so far (stdout and stderr interleaved). */
  log(): string;
  /** SIGTERM the process group, then SIGKILL after `graceMs`; resolves once it exited. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<Proc>();

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}

// Last line of defence: whatever happens to the bench process, no server outlives it.
process.once('exit', () => {
  for (const p of live) killGroup(p.pid, 'SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    for (const p of live) killGroup(p.pid, 'SIGKILL');
    process.exit(130);
  });
}

let counter = 0;

/** Spawns `command args` in its own process group, output appended to bench/.work/logs/<name>-N.log. */
export function spawnProc(
  name: string,
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Proc {
  const logFile = join(workDir('logs'), `${name}-${++counter}.log`);
  const fd = openSync(logFile, 'w');
  const spawnedAt = performance.now();
  const child = spawn(command, args, {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', fd, fd],
    detached: true,
  });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`${name}: could not spawn ${command}`);
  const pid = child.pid;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown'));
    child.once('error', (err) => resolve(`error: ${err.message}`));
  });
  let done = false;
  const proc: Proc = {
    name,
    pid,
    logFile,
    spawnedAt,
    exited,
    child,
    log: () => {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '';
      }
    },
    async stop(graceMs = 5_000) {
      if (!done) {
        killGroup(pid, 'SIGTERM');
        const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
        await exited;
        clearTimeout(timer);
        // Children of the group leader (e.g. a JVM under a wrapper) go too.
        killGroup(pid, 'SIGKILL');
      }
      done = true;
      live.delete(proc);
    },
  };
  void exited.then(() => {
    done = true;
    live.delete(proc);
  });
  live.add(proc);
  return proc;
}

/** Stops every process still running (use in `finally`). */
export async function stopAll(): Promise<void> {
  await Promise.all([...live].map((p) => p.stop()));
}

/** A TCP port free right now on 127.0.0.1 (for peers that cannot report a port they picked). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Calls `probe` every `intervalMs` until it answers a value, the process dies, or `timeoutMs` passes. */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  { timeoutMs = 30_000, intervalMs = 5, proc }: { timeoutMs?: number; intervalMs?: number; proc?: Proc } = {},
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  let exitedWith: number | string | undefined;
  void proc?.exited.then((code) => {
    exitedWith = code;
  });
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (exitedWith !== undefined) {
      throw new Error(
        `${what}: ${proc?.name} exited (${exitedWith}) first; log:\n${tail(proc?.log() ?? '')}`,
      );
    }
    if (performance.now() > deadline) {
      throw new Error(`${what}: not within ${timeoutMs} ms${proc ? `; log:\n${tail(proc.log())}` : ''}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** The last lines of a log, for error messages. */
export function tail(text: string, lines = 15): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
