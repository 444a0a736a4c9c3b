/**
 * What a `serve` start loads (docs/perf-budget.md): undici, a quarter of a start's instructions, only
 * once something is delivered (src/delivery/undici.ts). The real built CLI in a child process; the
 * child answers whether any undici file is in the module cache once it is listening.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'start-loads-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CHILD = `
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
const [main, urlFile] = process.argv.slice(1);
void (await import(main)).main(['serve', '--port', '0', '--log-level', 'silent', '--url-file', urlFile]);
while (!existsSync(urlFile) || readFileSync(urlFile, 'utf8').trim() === '') await new Promise((r) => setTimeout(r, 10));
const cache = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ undici: cache.filter((f) => f.includes('/node_modules/undici/')).length }));
process.exit(0);
`;

it('a serve start that delivers nothing does not load undici', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, [
    '--input-type=module',
    '-e',
    CHILD,
    join(ROOT, 'dist/bin/main.js'),
    join(dir, 'url'),
  ]);
  expect(JSON.parse(stdout)).toEqual({ undici: 0 });
});
