/**
 * Every code block of README.md and docs/*.md (decision records aside) either runs as written or
 * says what it needs (issue 39 §2; helpers/doc-blocks.ts has the marks): a tour block runs in
 * test/readme-tour.test.ts, a `<!-- run: … -->` block in test/packed-install.package.test.ts, and a
 * `<!-- needs: … -->` block names what it needs first. Counts the docs quote are checked here too.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { CASE_IDS } from '../src/verify/index.js';
import { CLIENT_CASE_IDS } from '../src/verify-client/types.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { DOC_FILES, DOC_ROOT, docBlocks } from './helpers/doc-blocks.js';

describe('the code blocks of README.md and docs/', () => {
  const blocks = DOC_FILES.flatMap(docBlocks);

  it('each runs in a test or says what it needs first', () => {
    const unmarked = blocks
      .filter((b) => b.mark.kind === 'none')
      .map((b) => `${b.where}: ${b.text.split('\n')[0]}`);
    expect(
      unmarked,
      'add <!-- run: RUNNER FILE --> or <!-- needs: … --> on the line before the block',
    ).toEqual([]);
    expect(blocks.filter((b) => b.mark.kind === 'tour').length).toBeGreaterThan(20);
  });

  it('runs the README Vitest file, the plain script and the Jest file as written (from the package test)', () => {
    const run = blocks.flatMap((b) => (b.mark.kind === 'run' ? [`${b.mark.runner} ${b.mark.file}`] : []));
    expect(run.sort()).toEqual(['jest emulator.test.js', 'node example.mjs', 'vitest emulator.test.ts']);
    const packageTest = readFileSync(join(DOC_ROOT, 'test/packed-install.package.test.ts'), 'utf8');
    expect(packageTest).toContain("from './helpers/doc-blocks.js'");
  });

  it('names only tests and files that exist in its needs lines', () => {
    for (const b of blocks) {
      if (b.mark.kind !== 'needs') continue;
      for (const [path] of b.mark.what.matchAll(/(?:test|src|scripts|scenarios|docker)\/[\w./-]*\w/g))
        expect(existsSync(join(DOC_ROOT, path)), `${b.where} names ${path}`).toBe(true);
    }
  });

  it('quotes the number of verify and verify-client cases there are', () => {
    const quoted: string[] = [];
    for (const b of blocks) {
      for (const m of b.text.matchAll(/"total":(\d+)|^\s*(?:FAILED: |PASSED: )?(\d+) cases\b/gm))
        quoted.push(`${b.where}: ${m[1] ?? m[2]}`);
    }
    expect(quoted.length).toBeGreaterThan(0);
    for (const q of quoted) {
      // docs/verify-client.md quotes the SDK kit's cases; every other document the receiver kit's.
      const count = q.startsWith('docs/verify-client.md:') ? CLIENT_CASE_IDS.length : CASE_IDS.length;
      expect(q).toMatch(new RegExp(`: ${count}$`));
    }
  });
});

describe('the documentation', () => {
  it('stays within its word budget (README.md and docs/*.md, decision records aside: scripts/words.mjs)', async () => {
    const { code, stdout } = await promisify(execFile)(
      process.execPath,
      [join(DOC_ROOT, 'scripts/words.mjs'), '--check'],
      { timeout: WAIT_DEADLINE_MS },
    ).then(
      (r) => ({ code: 0, stdout: r.stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    expect(code, stdout.split('\n').at(-2)).toBe(0);
  });
});

describe('the decision index', () => {
  it('is what scripts/decision-index.mjs generates from the records', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [join(DOC_ROOT, 'scripts/decision-index.mjs'), '--check'],
      { timeout: WAIT_DEADLINE_MS },
    ).catch((err: { stdout: string; stderr: string }) => ({ stdout: err.stdout + err.stderr }));
    expect(stdout).toContain('the index is current');
  });
});
