import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingsInput } from '../../src/config/index.js';
import { type RunningEmulator, startServer } from '../../src/server.js';
import { CLOCK_START } from './clock.js';
import { afterEachTest } from './file-hooks.js';

// Emulators in this process on a --data-dir, for the persistence tests: each test's emulators are
// closed and its folders removed after it.
const dirs: string[] = [];
const running: RunningEmulator[] = [];
afterEachTest(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A data dir that does not exist yet, in a new temporary folder (`prefix` names it). */
export function freshDataDir(prefix = 'reportbo-dd-'): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(d);
  return join(d, 'data');
}

/** Settings of a fresh data dir with a manual clock at CLOCK_START. */
export function dataDirSettings(prefix?: string): SettingsInput {
  return { dataDir: freshDataDir(prefix), clock: 'manual', clockStart: CLOCK_START };
}

/** An emulator on port 0 (silent, http allowed) with `input`. */
export async function serve(input: SettingsInput): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, logLevel: 'silent', allowHttp: true, ...input });
  running.push(r);
  return r;
}

/** Closes `r` (an emulator `serve` started). */
export async function stop(r: RunningEmulator): Promise<void> {
  await r.close();
  running.splice(running.indexOf(r), 1);
}

/** Closes `r` and starts another with `input`: a restart on the same data dir. */
export async function restart(r: RunningEmulator, input: SettingsInput): Promise<RunningEmulator> {
  await stop(r);
  return serve(input);
}
