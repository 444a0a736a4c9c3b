/**
 * No test sets its own deadline below the suite's (test/helpers/deadline.ts). A test's deadline only
 * bounds a test that would never end; one written as "90 s, it takes 30" turned red at load 10 on two
 * cores (three such in one run), so the class is checked here, in every test file, rather than the
 * instances that failed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DEADLINE_MS, WAIT_DEADLINE_MS } from './helpers/deadline.js';

/** `}, 60_000);` closing a test or hook, and `{ timeout: 60_000 }, async () =>` opening one. */
const TRAILING = /\},\s*([\d_]+)\s*\);/g;
const OPTIONS = /\{\s*timeout:\s*([\d_]+),?\s*\},\s*(?:async\s*)?\(/g;

/**
 * A wait's literal deadline: `expect.poll(f, { timeout: 10_000 })`, `waitForFunction(f, a, { timeout:
 * 60_000 })`, `waitForRequests(1, 20_000)`. Under a second it is a test of the expiry itself.
 */
const WAIT_OPTION = /\btimeout:\s*([\d_]+)/g;
const WAIT_CALL = /\bwaitFor\w*\([^,;()]*,\s*([\d_]+)\s*\)/g;
/** A harness's default deadline: `function bash(cmd: string, timeoutMs = 30_000)` (10 s and more). */
const DEFAULT_PARAM = /\b\w*(?:timeout|deadline)Ms\s*=\s*([\d_]+)\s*[,)]/gi;

/** The literal test deadlines of `source` under the suite's (10 s and more: shorter ones are waits), and waits' under the wait deadline. */
function shortDeadlines(source: string): string[] {
  const found: string[] = [];
  for (const [re, least, most] of [
    [TRAILING, 10_000, TEST_DEADLINE_MS],
    [OPTIONS, 10_000, TEST_DEADLINE_MS],
    [WAIT_OPTION, 1_000, WAIT_DEADLINE_MS],
    [WAIT_CALL, 1_000, WAIT_DEADLINE_MS],
    [DEFAULT_PARAM, 10_000, WAIT_DEADLINE_MS],
  ] as const) {
    for (const m of source.matchAll(re)) {
      const ms = Number(m[1]!.replaceAll('_', ''));
      if (ms >= least && ms < most) {
        const line = source.slice(0, m.index).split('\n').length;
        found.push(`line ${line}: ${m[0].replace(/\s+/g, ' ')}`);
      }
    }
  }
  return found;
}

const ROOT = new URL('..', import.meta.url).pathname;
const inNpmTest = (f: string) =>
  /\.(test|browser)\.ts$/.test(f) && !/\.(package|scale)\.test\.ts$/.test(f) && !f.includes('fixtures');
/**
 * The files of `npm test` as `test/…` and `src/…` paths (the package and scale runs have configs and
 * deadlines of their own); this one quotes the forms.
 */
const files = ['test', 'src'].flatMap((dir) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => inNpmTest(f) && f !== 'test-deadlines.test.ts')
    .map((f) => `${dir}/${f}`),
);

describe('test deadlines', () => {
  it('finds a short deadline in either form, and leaves waits and the suite deadline alone', () => {
    expect(shortDeadlines("it('x', async () => {\n  await run();\n}, 90_000);")).toEqual([
      'line 3: }, 90_000);',
    ]);
    expect(shortDeadlines("it('x', {\n  timeout: 120_000,\n}, async () => {});")).toHaveLength(1);
    expect(shortDeadlines('await expect.poll(() => n, { timeout: 10_000 }).toBe(2);')).toHaveLength(1);
    expect(shortDeadlines('await r.waitForRequests(1, 20_000);')).toHaveLength(1);
    expect(shortDeadlines('await r.waitForRequests(2, WAIT_DEADLINE_MS);')).toEqual([]);
    expect(shortDeadlines("await expect(r.waitForRequests(3, 50)).rejects.toThrow('…');")).toEqual([]);
    expect(shortDeadlines("it('x', async () => {}, 2 * TEST_DEADLINE_MS);")).toEqual([]);
    expect(shortDeadlines('setTimeout(() => {}, 500);')).toEqual([]);
    expect(shortDeadlines('function bash(c: string, timeoutMs = 30_000): void {}')).toHaveLength(1);
    expect(shortDeadlines('function until(ok: () => boolean, timeoutMs = WAIT_DEADLINE_MS) {}')).toEqual([]);
    expect(shortDeadlines('function sender(timeoutMs = 2_000) {}')).toEqual([]);
  });

  it.each(files)('%s sets no deadline under the suite’s, and no wait under the wait deadline', (file) => {
    expect(shortDeadlines(readFileSync(join(ROOT, file), 'utf8'))).toEqual([]);
  });
});
