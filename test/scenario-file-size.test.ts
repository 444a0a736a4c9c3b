import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SCENARIO_FILE_BYTES } from '../src/scenarios/load/loader.js';
import { runCli } from './helpers/cli.js';

// A scenario file above the documented size is refused before it is read (issue 31 §4): a 200 MB
// one ended in a V8 heap OOM (exit 134). The file here is sparse: 200 MB long, no disk used.

const dir = mkdtempSync(join(tmpdir(), 'reportbo-big-scenario-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const big = join(dir, 'big.yaml');
writeFileSync(big, 'name: big\nsteps: []\n# ');
truncateSync(big, 200 * 1024 * 1024);

describe('a scenario file above the size limit', () => {
  it.each([
    ['serve --scenario', ['serve', '--port', '0', '--scenario', big]],
    ['run', ['run', big]],
  ])('is refused by %s with exit 2, naming the file, its size and the limit', async (_, args) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      `${big}: the scenario file is ${200 * 1024 * 1024} bytes, above the limit of ${MAX_SCENARIO_FILE_BYTES} bytes (4 MiB)`,
    );
  });
});
