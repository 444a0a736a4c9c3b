#!/usr/bin/env node
// Thin launcher: the CLI is dist/bin/main.js, one bundled module graph (decision 0161) built by
// `npm run build`, which `npm install` runs via `prepare`.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const entry = new URL('../dist/bin/main.js', import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write(
    'reportbo-emulator: the built CLI (dist/bin/main.js) is missing.\n' +
      'In a source checkout run `npm install` (it builds via `prepare`) or `npm run build`.\n',
  );
  process.exit(2);
}
// A reader that went away (`reportbo-emulator verify --help | head -5`) ends the output, not the
// process with a stack trace: the rest is not wanted.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (err) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw err;
  });
}
const { main } = await import(entry.href);
process.exitCode = await main(process.argv.slice(2));
