import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export const ROOT = new URL('../../', import.meta.url).pathname;
const BIN = join(ROOT, 'bin/reportbo-emulator.js');

/** What one CLI run printed and how it ended. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  wallMs: number;
}

/** Runs the real CLI (`node bin/reportbo-emulator.js …`, built dist/) from the repository root. */
export function runCli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
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
  return new Promise((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr, wallMs: performance.now() - started })),
  );
}

/** A temporary directory for scenario files and reports, removed after the test file. */
export function scenarioDir(): { dir: string; write(name: string, text: string): string } {
  const dir = mkdtempSync(join(tmpdir(), 'reportbo-scenarios-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return {
    dir,
    write(name, text) {
      const file = join(dir, name);
      writeFileSync(file, text);
      return file;
    },
  };
}
