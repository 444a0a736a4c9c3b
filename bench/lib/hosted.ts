/**
 * The parent's side of bench/lib/emulator-host.ts (the emulator in a process of its own, watching its
 * event loop) and of bench/lib/health-probe.mjs (health asked from a third process).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { join } from 'node:path';
import type { HostWindow } from './emulator-host.js';
import { ROOT, workDir } from './proc.js';

export type { HostWindow };

/** A forked child with IPC, its output appended to bench/.work/logs/<name>.log. */
function forkLogged(name: string, file: string, args: string[], execArgv: string[] = []): ChildProcess {
  const log = openSync(join(workDir('logs'), `${name}-${process.pid}.log`), 'a');
  const child = fork(join(ROOT, 'bench', 'lib', file), args, {
    execArgv,
    stdio: ['ignore', log, log, 'ipc'],
  });
  closeSync(log);
  return child;
}

/** The next IPC message of `child` that has member `key`; rejects if the child exits first. */
function next<T>(child: ChildProcess, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: Record<string, unknown>) => {
      if (!(key in m)) return;
      child.off('message', onMessage).off('exit', onExit);
      resolve(m[key] as T);
    };
    const onExit = (code: number | null) => {
      child.off('message', onMessage);
      reject(new Error(`${key}: the child exited (${code}) first; see bench/.work/logs/`));
    };
    child.on('message', onMessage).once('exit', onExit);
  });
}

/** A hosted emulator: its URL, its process id, a window on its event loop, and a stop. */
export interface Hosted {
  url: string;
  pid: number;
  /** Runs `work` inside a window; answers its result and what the loop did meanwhile. */
  watch<T>(work: () => Promise<T>): Promise<{ result: T; loop: HostWindow }>;
  stop(): Promise<void>;
}

/** Starts the emulator in its own process with `startServer(input)`, and `fill` notifications added. */
export async function startHosted(
  input: Record<string, unknown>,
  fill?: { count: number; startMs: number; resendEvery?: number; credentialId?: string },
): Promise<Hosted> {
  // BENCH_HOST_NODE_ARGS: node flags for the emulator's process, e.g. `--trace-gc` (its output goes
  // to bench/.work/logs/emulator-host-<pid>.log).
  const extra = process.env.BENCH_HOST_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = forkLogged(
    'emulator-host',
    'emulator-host.ts',
    [JSON.stringify({ input, fill })],
    ['--import', 'tsx', ...extra],
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await next<string>(child, 'url');
  return {
    url,
    pid: child.pid!,
    async watch(work) {
      const started = next(child, 'window');
      child.send({ window: 'start' });
      await started;
      const result = await work();
      const ended = next<HostWindow>(child, 'window');
      child.send({ window: 'end' });
      return { result, loop: await ended };
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.send({ stop: true });
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Health asked every `everyMs` by a process of its own until `stop()`, which answers the latencies (ms). */
export function healthProbe(
  url: string,
  everyMs: number,
): { stop(): Promise<{ latencies: number[]; failed: number }> } {
  const child = forkLogged('health-probe', 'health-probe.mjs', [`${url}/__admin/health`, String(everyMs)]);
  return {
    async stop() {
      const answer = next<number[]>(child, 'latencies');
      const failed = next<number>(child, 'failed');
      child.send('stop');
      return { latencies: await answer, failed: await failed };
    },
  };
}
