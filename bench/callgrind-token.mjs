#!/usr/bin/env node
/**
 * `valgrind --tool=callgrind node bench/callgrind-token.mjs N`: N 1.7 JSON GetAccessToken calls
 * through the emulator's Hono app in this process (after 500 to warm up), nothing else. Run it for
 * two N and divide the difference of the instruction counts by the difference of N: instructions
 * per call, which a shared machine's load does not move (docs/benchmarks.md "Method"). Used to
 * measure the entries of docs/perf-budget.md that sit on the 1.7 JSON path, each with and without
 * its trick (BENCH_DIST names another build's dist/ folder, e.g. a copy with one trick undone).
 */
const dist = new URL(
  process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST}/` : '../dist/',
  import.meta.url,
);
const { createApp, createEmulator } = await import(new URL('index.js', dist).href);

const n = Number(process.argv[2] ?? '1000');
const emulator = createEmulator(
  { logLevel: 'silent', clock: 'manual', seed: 1 },
  {},
  { users: [{ username: 'u', password: 'p', idWeb: 1, webDescription: 'W', versions: ['1.7'] }] },
);
await emulator.ready;
const app = createApp(emulator);
const call = () =>
  app.request('/api/1.7/AuthService.json/GetAccessToken', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"Username":"u","Password":"p"}',
  });
for (let i = 0; i < 500; i++) await (await call()).text();
for (let i = 0; i < n; i++) await (await call()).text();
const last = await (await call()).json();
if (last.TransactionCode !== null) throw new Error(`unexpected answer ${JSON.stringify(last)}`);
process.exit(0);
