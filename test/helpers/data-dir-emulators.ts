import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SettingsInput } from '../../src/config/index.js';
import { type RunningEmulator, startServer } from '../../src/server.js';
import { atFileEnd } from './file-hooks.js';

const running = new Set<RunningEmulator>();
const roots: string[] = [];
atFileEnd(async () => {
  for (const e of running) await e.close();
  running.clear();
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A directory for data dirs, removed at the end of the test file. */
export function dataDirRoot(prefix: string): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  roots.push(root);
  return root;
}

/**
 * An emulator on `dataDir` with a manual clock at 2026-04-27T10:00:00Z, silent, plain-http receivers
 * allowed; `settings` adds to them. Closed at the end of the test file unless `stop` closed it.
 */
export async function serveOnDataDir(
  dataDir: string,
  settings: SettingsInput = {},
): Promise<RunningEmulator> {
  const emu = await startServer({
    port: 0,
    logLevel: 'silent',
    allowHttp: true,
    clock: 'manual',
    clockStart: '2026-04-27T10:00:00Z',
    ...settings,
    dataDir,
  });
  running.add(emu);
  return emu;
}

/** Closes an emulator `serveOnDataDir` started. */
export async function stop(emu: RunningEmulator): Promise<void> {
  await emu.close();
  running.delete(emu);
}
