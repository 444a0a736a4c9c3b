#!/usr/bin/env node
/**
 * `valgrind --tool=callgrind node bench/callgrind-start.mjs [args…]`: the CLI's `serve` from the
 * import of dist/bin/main.js until it wrote its URL (it is ready), then exit: the instructions of one
 * start, which a shared machine's load does not move (docs/benchmarks.md "Method"). BENCH_BIN names
 * another build of dist/bin/ (e.g. one with a start-up trick undone). Extra arguments go to `serve`.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const bin = process.env.BENCH_BIN ?? new URL('../dist/bin/', import.meta.url).pathname;
const urlFile = join(mkdtempSync(join(tmpdir(), 'cg-start-')), 'url');
const { main } = await import(join(bin, 'main.js'));
main(['serve', '--port', '0', '--log-level', 'silent', '--url-file', urlFile, ...process.argv.slice(2)]);
const ready = () => existsSync(urlFile) && readFileSync(urlFile, 'utf8').trim() !== '';
while (!ready()) await new Promise((r) => setTimeout(r, 5));
process.exit(0);
