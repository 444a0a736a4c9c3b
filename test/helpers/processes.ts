import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { BIN, ROOT } from './cli.js';
import { WAIT_DEADLINE_MS, waitExpired } from './deadline.js';
import { atFileEnd } from './file-hooks.js';

/** A child process started by a test, with everything it printed so far. */
export interface Started {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first match of `pattern` in stdout+stderr; rejects if the process exits first. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code. */
  exited(): Promise<number | null>;
}

const running = new Set<ChildProcess>();

atFileEnd(async () => {
  const stopping = [...running].map(async (child) => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  running.clear();
  await Promise.all(stopping);
});

/** Spawns a command; the test file stops it (SIGTERM) after all its tests if it is still running. */
export function start(
  command: string,
  args: string[],
  env: Record<string, string> = {},
  cwd?: string,
): Started {
  const child = spawn(command, args, {
    env: { ...process.env, ...env },
    stdio: 'pipe',
    ...(cwd ? { cwd } : {}),
  });
  running.add(child);
  let text = '';
  const onData = (c: Buffer) => {
    text += c.toString();
  };
  child.stdout!.on('data', onData);
  child.stderr!.on('data', onData);
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => text,
    exited: () => exit,
    waitFor(pattern, timeoutMs = WAIT_DEADLINE_MS) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const m = pattern.exec(text);
          if (m) {
            cleanup();
            resolve(m);
          }
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(waitExpired(`${pattern} in the output of ${command}`, timeoutMs, `output:\n${text}`));
        }, timeoutMs);
        const onExit = (code: number | null) => {
          cleanup();
          reject(new Error(`exited with ${code} before ${pattern}; output:\n${text}`));
        };
        const cleanup = () => {
          clearTimeout(timer);
          child.stdout!.off('data', check);
          child.stderr!.off('data', check);
          child.off('exit', onExit);
        };
        child.stdout!.on('data', check);
        child.stderr!.on('data', check);
        child.once('exit', onExit);
        check();
      });
    },
  };
}

/** A `reportbo-emulator serve` started by a test, once it printed where it listens. */
export interface Served {
  /** Its base URL, e.g. `http://127.0.0.1:41234`. */
  url: string;
  started: Started;
}

/**
 * Starts the real CLI (`bin/`, from dist/: `npm run build` first) as `serve --port 0 …args` and
 * waits for its `listening on` line; the test file stops it after all its tests (see `start`).
 */
export async function serveCli(
  args: string[] = [],
  env: Record<string, string> = {},
  cwd?: string,
): Promise<Served> {
  const started = start(process.execPath, [BIN, 'serve', '--port', '0', ...args], env, cwd);
  const [, url] = await started.waitFor(/listening on (http:\/\/[\d.:[\]]+)/);
  return { url: url!, started };
}

/**
 * The reference receiver (docker/sample-receiver/server.js) over TLS on a free loopback port, with
 * the server certificate and key that `certs --out <certs>` wrote, taking `apiKeys` (comma-separated)
 * and storing what it gets in `out`; resolves with its port once it listens.
 */
export async function sampleReceiver(
  certs: string,
  apiKeys: string,
  out: string,
): Promise<{ port: number; started: Started }> {
  const started = start(process.execPath, [
    join(ROOT, 'docker/sample-receiver/server.js'),
    '--port',
    '0',
    '--cert',
    join(certs, 'server.pem'),
    '--key',
    join(certs, 'server-key.pem'),
    '--api-key',
    apiKeys,
    '--out',
    out,
  ]);
  const [, port] = await started.waitFor(/listening on https:\/\/127\.0\.0\.1:(\d+)/);
  return { port: Number(port), started };
}
