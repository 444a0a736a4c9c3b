#!/usr/bin/env node
/**
 * `valgrind --tool=callgrind node bench/callgrind-token.mjs N [json|xml|soap11]`: N 1.7 GetAccessToken calls (JSON unless named)
 * through the emulator's Hono app in this process (after 500 to warm up), nothing else. Run it for
 * two N and divide the difference of the instruction counts by the difference of N: instructions
 * per call, which a shared machine's load does not move (docs/benchmarks.md "Method"). Used to
 * measure the entries of docs/perf-budget.md that sit on the 1.7 JSON path, each with and without
 * its trick (BENCH_DIST names another build's dist/ folder, e.g. a copy with one trick undone).
 * BENCH_LOG_LEVEL (default silent) and BENCH_SETTINGS (JSON) set the emulator's log level and other
 * settings (its log goes to stdout: redirect it).
 */
const dist = new URL(
  process.env.BENCH_DIST ? `file://${process.env.BENCH_DIST}/` : '../dist/',
  import.meta.url,
);
const { createApp, createEmulator } = await import(new URL('index.js', dist).href);

const n = Number(process.argv[2] ?? '1000');
const variant = process.argv[3] ?? 'json';
const REQUESTS = {
  json: ['/api/1.7/AuthService.json/GetAccessToken', 'application/json', '{"Username":"u","Password":"p"}'],
  xml: [
    '/api/1.7/AuthService.xml/GetAccessToken',
    'application/xml',
    '<GetAccessTokenRequest><Username>u</Username><Password>p</Password></GetAccessTokenRequest>',
  ],
  soap11: [
    '/api/1.7/AuthService.asmx',
    'text/xml; charset=utf-8',
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      '<soap:Body><GetAccessToken xmlns="http://tempuri.org/"><request><Username>u</Username><Password>p</Password></request>' +
      '</GetAccessToken></soap:Body></soap:Envelope>',
  ],
};
const [path, type, body] = REQUESTS[variant] ?? [];
if (!path) throw new Error(`variant ${variant}: json, xml or soap11`);
const emulator = createEmulator(
  {
    logLevel: process.env.BENCH_LOG_LEVEL ?? 'silent',
    clock: 'manual',
    seed: 1,
    ...JSON.parse(process.env.BENCH_SETTINGS ?? '{}'),
  },
  {},
  { users: [{ username: 'u', password: 'p', idWeb: 1, webDescription: 'W', versions: ['1.7'] }] },
);
await emulator.ready;
const app = createApp(emulator);
const headers = {
  'content-type': type,
  ...(variant === 'soap11' ? { soapaction: '"http://tempuri.org/GetAccessToken"' } : {}),
};
const call = () => app.request(path, { method: 'POST', headers, body });
for (let i = 0; i < 500; i++) await (await call()).text();
for (let i = 0; i < n; i++) await (await call()).text();
const last = await call();
if (last.status !== 200) throw new Error(`unexpected answer ${last.status} ${await last.text()}`);
process.exit(0);
