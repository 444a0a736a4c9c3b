#!/usr/bin/env node
/**
 * `node bench/token-ab.mjs <dist-a> <dist-b> [json|xml|soap11] [rounds] [calls] > /dev/null`: the
 * GetAccessToken 1.7 path of two builds (their tsc `dist/` folders, e.g. one with a trick of
 * docs/perf-budget.md undone) in one process, through each build's Hono app, in alternating rounds
 * of `calls` calls, so both see the same load, warm-up and heap. The figure is this process's CPU
 * (user + system, `process.cpuUsage`: /proc utime + stime) per call, median of the rounds per build,
 * and the median of the per-round ratios b ÷ a. BENCH_LOG_LEVEL (default silent) sets both
 * emulators' log level: their lines go to stdout, so redirect it. BENCH_SETTINGS_B (JSON) adds
 * settings to build b only (e.g. `{"logLinesPerSecond":1000000}`).
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [a, b, variant = 'json', roundsArg = '20', callsArg = '2000'] = process.argv.slice(2);
if (!a || !b || !['json', 'xml', 'soap11'].includes(variant)) {
  console.error('usage: node bench/token-ab.mjs <dist-a> <dist-b> [json|xml|soap11] [rounds] [calls]');
  process.exit(2);
}
const ROUNDS = Number(roundsArg);
const CALLS = Number(callsArg);
const REQUESTS = {
  json: {
    path: '/api/1.7/AuthService.json/GetAccessToken',
    type: 'application/json',
    body: '{"Username":"u","Password":"p"}',
  },
  xml: {
    path: '/api/1.7/AuthService.xml/GetAccessToken',
    type: 'application/xml',
    body: '<GetAccessTokenRequest><Username>u</Username><Password>p</Password></GetAccessTokenRequest>',
  },
  soap11: {
    path: '/api/1.7/AuthService.asmx',
    type: 'text/xml; charset=utf-8',
    soapAction: '"http://tempuri.org/GetAccessToken"',
    body:
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">' +
      '<soap:Body><GetAccessToken xmlns="http://tempuri.org/"><request><Username>u</Username><Password>p</Password></request>' +
      '</GetAccessToken></soap:Body></soap:Envelope>',
  },
};
const req = REQUESTS[variant];

async function build(dist, extra) {
  const { createApp, createEmulator } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  const emulator = createEmulator(
    { logLevel: process.env.BENCH_LOG_LEVEL ?? 'silent', clock: 'manual', seed: 1, ...extra },
    {},
    { users: [{ username: 'u', password: 'p', idWeb: 1, webDescription: 'W', versions: ['1.7'] }] },
  );
  await emulator.ready;
  const app = createApp(emulator);
  const headers = { 'content-type': req.type, ...(req.soapAction ? { soapaction: req.soapAction } : {}) };
  const call = async () => {
    const res = await app.request(req.path, { method: 'POST', headers, body: req.body });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`${dist}: ${res.status} ${text.slice(0, 200)}`);
  };
  return { call, emulator };
}

const builds = [await build(a, {}), await build(b, JSON.parse(process.env.BENCH_SETTINGS_B ?? '{}'))];
for (const { call } of builds) for (let i = 0; i < 2_000; i++) await call();
const perCall = [[], []];
for (let r = 0; r < ROUNDS; r++) {
  for (const i of r % 2 ? [1, 0] : [0, 1]) {
    const before = process.cpuUsage();
    for (let k = 0; k < CALLS; k++) await builds[i].call();
    const used = process.cpuUsage(before);
    perCall[i].push((used.user + used.system) / CALLS);
  }
}
const median = (xs) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const ratios = perCall[0].map((x, r) => perCall[1][r] / x);
console.error(
  `${variant}: a ${median(perCall[0]).toFixed(1)} µs, b ${median(perCall[1]).toFixed(1)} µs per call; ` +
    `b ÷ a ${median(ratios).toFixed(3)} (rounds ${ROUNDS} × ${CALLS})`,
);
process.exit(0);
