#!/usr/bin/env node
/**
 * `npm run decisions:index [-- --check]`: the index of docs/decisions/README.md, generated from the
 * records themselves (number and file name, the title of each record's first line, the first words
 * of its `Status:` line), between `<!-- index:start -->` and `<!-- index:end -->`. Rewrites the
 * table; `--check` only says whether it is current (exit 1 when not), as
 * test/docs-citations.test.ts runs it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = join(resolve(dirname(fileURLToPath(import.meta.url)), '..'), 'docs/decisions');
const INDEX = join(DIR, 'README.md');
const args = process.argv.slice(2);
if (args.some((a) => a !== '--check')) {
  process.stderr.write(`usage: node scripts/decision-index.mjs [--check] (got ${args.join(' ')})\n`);
  process.exit(2);
}

/** One table row per record, in number order. */
export function indexTable() {
  const rows = readdirSync(DIR)
    .filter((f) => /^\d{4}-.*\.md$/.test(f))
    .sort()
    .map((file) => {
      const text = readFileSync(join(DIR, file), 'utf8');
      const title = /^# \d{4}[.:]\s*(.+)$/m.exec(text)?.[1]?.trim();
      const status = /^(?:- )?Status:\s*(.+)$/m
        .exec(text)?.[1]
        ?.split(/ \(|\. /)[0]
        ?.replace(/\.$/, '')
        .trim();
      if (!title || !status)
        throw new Error(`docs/decisions/${file}: needs a "# NNNN. Title" line and a "Status:" line`);
      return `| [${file.slice(0, 4)}](${file}) | ${title.replaceAll('|', '\\|')} | ${status} |`;
    });
  return ['| Number | Title | Status |', '|---|---|---|', ...rows].join('\n');
}

const text = readFileSync(INDEX, 'utf8');
const match = /(<!-- index:start -->\n)[\s\S]*?(\n<!-- index:end -->)/.exec(text);
if (!match) {
  process.stderr.write('docs/decisions/README.md: no <!-- index:start --> … <!-- index:end --> markers\n');
  process.exit(1);
}
const next = text.replace(match[0], `${match[1]}${indexTable()}${match[2]}`);
if (args.includes('--check')) {
  if (next !== text) {
    process.stderr.write('docs/decisions/README.md: the index is not current; run npm run decisions:index\n');
    process.exit(1);
  }
  process.stdout.write('docs/decisions/README.md: the index is current\n');
} else {
  writeFileSync(INDEX, next);
  process.stdout.write(
    `docs/decisions/README.md: index of ${next.split('\n').filter((l) => /^\| \[\d{4}\]/.test(l)).length} records written\n`,
  );
}
