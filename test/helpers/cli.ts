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

/** Runs the real CLI (`node bin/reportbo-emulator.js …`) to completion. */
export function runCli(args: string[], env: Record<string, string> = {}, cwd = ROOT): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd,
    env: { ...process.env, ...env },
    stdio: 'pipe',
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
