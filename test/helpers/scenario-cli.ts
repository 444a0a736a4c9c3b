import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

export { ROOT, runCli } from './cli.js';

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
