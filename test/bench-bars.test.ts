/**
 * `npm run bench` checks its bars: a suite whose figure misses its bar prints `FAIL <suite>: <bar>`
 * and the run exits 1 after writing its report (bench/run.ts). The generate suite runs quick
 * (BENCH_QUICK) against a bar no machine meets, and against one every machine meets.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = new URL('../', import.meta.url).pathname;
const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bench-bars-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function bench(target: number): Promise<{ code: number; stderr: string; report: string }> {
  const report = join(dir, `report-${target}.md`);
  const env = {
    ...process.env,
    BENCH_QUICK: '1',
    BENCH_GENERATE_TARGET: String(target),
    BENCH_REPORT: report,
  };
  const done = await run(process.execPath, ['--import', 'tsx', 'bench/run.ts', 'generate'], {
    cwd: ROOT,
    env,
    timeout: 120_000,
  }).then(
    (r) => ({ code: 0, stderr: r.stderr }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
  return { ...done, report: await readFile(report, 'utf8') };
}

describe('npm run bench', () => {
  it('prints FAIL and exits 1 when a bar is missed, after writing the report', async () => {
    const { code, stderr, report } = await bench(1e12);
    expect(stderr).toMatch(/^FAIL generate: generate ≥ 1,000,000,000,000 bodies\/s$/m);
    expect(code).toBe(1);
    expect(report).toContain('**missed**');
  });

  it('exits 0 without a FAIL line when every bar is met', async () => {
    const { code, stderr, report } = await bench(1);
    expect(stderr).not.toContain('FAIL');
    expect(code).toBe(0);
    expect(report).toContain('**met**');
  });
});
