#!/usr/bin/env node
/**
 * `npm run words [-- --check]`: the words of README.md and docs/*.md (the decision records aside, as
 * issue 39 counts them), per file and in all, counted as `wc -w` does (runs of non-space).
 * `--check` exits 1 when the total is over LIMIT (test/docs-code-blocks.test.ts runs it).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const LIMIT = 35_000;
const args = process.argv.slice(2);
if (args.some((a) => a !== '--check')) {
  process.stderr.write(`usage: node scripts/words.mjs [--check] (got ${args.join(' ')})\n`);
  process.exit(2);
}

const files = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
// A reader that stops early (`| head`) is not an error.
process.stdout.on('error', (err) => process.exit(err.code === 'EPIPE' ? 0 : 1));
const counts = files.map((file) => [
  file,
  readFileSync(join(ROOT, file), 'utf8').split(/\s+/).filter(Boolean).length,
]);
const total = counts.reduce((sum, [, n]) => sum + n, 0);
const width = Math.max(...files.map((f) => f.length));
for (const [file, n] of counts.sort((a, b) => b[1] - a[1]))
  process.stdout.write(`${file.padEnd(width)} ${String(n).padStart(6)}\n`);
process.stdout.write(`${'total'.padEnd(width)} ${String(total).padStart(6)} words (limit ${LIMIT})\n`);
if (args.includes('--check') && total > LIMIT) process.exit(1);
