/**
 * GetAccessToken throughput per variant (autocannon, 50 connections, BENCH_API_DURATION_SEC s each,
 * default 10) and cold start of the real CLI to the first successful 1.7 JSON token
 * (BENCH_API_COLD_RUNS runs, default 5). Targets (issue 4): 1.7 JSON ≥ 20,000 req/s, SOAP ≥ 5,000
 * req/s, cold start ≤ 300 ms.
 */
import { BENCH_USER } from '../lib/fixtures.js';
import { type LoadRequest, runLoad } from '../lib/load.js';
import { stopAll } from '../lib/proc.js';
import { startEmulator } from '../lib/servers.js';
import { envNumber, fmt, median, table } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const CONNECTIONS = 50;
const ACTION = 'http://tempuri.org/GetAccessToken';
const { username: U, password: P } = BENCH_USER;
const env = (v: '1.1' | '1.2', op: string) => {
  const ns =
    v === '1.1' ? 'http://schemas.xmlsoap.org/soap/envelope/' : 'http://www.w3.org/2003/05/soap-envelope';
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}"><soap:Body>${op}</soap:Body></soap:Envelope>`;
};
const op16 = `<GetAccessToken xmlns="http://tempuri.org/"><username>${U}</username><password>${P}</password></GetAccessToken>`;
const op17 = `<GetAccessToken xmlns="http://tempuri.org/"><request><Username>${U}</Username><Password>${P}</Password></request></GetAccessToken>`;
const xmlBody = `<GetAccessTokenRequest><Username>${U}</Username><Password>${P}</Password></GetAccessTokenRequest>`;
const S11 = { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${ACTION}"` };
const S12 = { 'content-type': `application/soap+xml; charset=utf-8; action="${ACTION}"` };

interface Variant {
  name: string;
  path: string;
  headers: Record<string, string>;
  body: string;
  target?: number;
  /** A success answer contains this. */
  ok: RegExp;
}

const VARIANTS: Variant[] = [
  {
    name: '1.7 JSON',
    path: '/api/1.7/AuthService.json/GetAccessToken',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: U, Password: P }),
    target: 20_000,
    ok: /"Token":"[0-9a-f]{32}"/,
  },
  {
    name: '1.7 XML',
    path: '/api/1.7/AuthService.xml/GetAccessToken',
    headers: { 'content-type': 'application/xml' },
    body: xmlBody,
    ok: /<Token>[0-9a-f]{32}</,
  },
  {
    name: '1.7 SOAP 1.1',
    path: '/api/1.7/AuthService.asmx',
    headers: S11,
    body: env('1.1', op17),
    target: 5_000,
    ok: /<Token>[0-9a-f]{32}</,
  },
  {
    name: '1.7 SOAP 1.2',
    path: '/api/1.7/AuthService.asmx',
    headers: S12,
    body: env('1.2', op17),
    target: 5_000,
    ok: /<Token>[0-9a-f]{32}</,
  },
  {
    name: '1.6 JSON',
    path: '/api/1.6/FlightService.json/GetAccessToken',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: U, password: P }),
    ok: /^"[0-9a-f]{32}"$/,
  },
  {
    name: '1.6 XML',
    path: '/api/1.6/FlightService.xml/GetAccessToken',
    headers: { 'content-type': 'application/xml' },
    body: xmlBody,
    ok: /<string [^>]*>[0-9a-f]{32}</,
  },
  {
    name: '1.6 SOAP 1.1',
    path: '/api/1.6/FlightService.asmx',
    headers: S11,
    body: env('1.1', op16),
    target: 5_000,
    ok: /<GetAccessTokenResult>[0-9a-f]{32}</,
  },
];

const suite: BenchSuite = {
  name: 'api',
  title: 'GetAccessToken: req/s per variant and cold start',
  async run(log) {
    const durationSec = envNumber('BENCH_API_DURATION_SEC', 10, 2);
    const coldRuns = envNumber('BENCH_API_COLD_RUNS', 5, 2);
    try {
      const cold: number[] = [];
      for (let i = 0; i < coldRuns; i++) {
        const s = await startEmulator({ args: ['--log-level', 'info'] });
        cold.push(s.coldStartMs);
        log(`cold start ${i + 1}/${coldRuns}: ${fmt(s.coldStartMs, 1)} ms`);
        await s.stop();
      }
      const server = await startEmulator({ args: ['--log-level', 'info'] });
      const rows: string[][] = [];
      try {
        for (const v of VARIANTS) {
          const req: LoadRequest = {
            url: `${server.url}${v.path}`,
            method: 'POST',
            headers: v.headers,
            body: v.body,
          };
          const probe = await fetch(req.url, { method: 'POST', headers: v.headers, body: v.body });
          const text = await probe.text();
          if (probe.status !== 200 || !v.ok.test(text))
            throw new Error(`${v.name}: not a success answer: ${probe.status} ${text.slice(0, 200)}`);
          const r = await runLoad(req, { connections: CONNECTIONS, durationSec });
          log(
            `${v.name}: ${fmt(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, non-2xx ${r.non2xx}`,
          );
          const verdict =
            v.target === undefined ? '' : r.rps >= v.target ? `≥ ${fmt(v.target)} ✔` : `< ${fmt(v.target)} ✘`;
          rows.push([
            v.name,
            fmt(r.rps),
            String(r.p50Ms),
            String(r.p99Ms),
            String(r.errors + r.non2xx),
            verdict,
          ]);
        }
      } finally {
        await server.stop();
      }
      const coldMedian = median(cold);
      return [
        `autocannon, ${CONNECTIONS} connections, ${durationSec} s per variant, against the built CLI (\`serve --config\` with one user). Each answer is a fresh token (journaled).`,
        '',
        table(['Variant', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'target'], rows),
        '',
        `Cold start (spawn \`node bin/reportbo-emulator.js serve\` → first successful 1.7 JSON token), ${coldRuns} runs: median **${fmt(coldMedian, 1)} ms** (runs: ${cold.map((c) => fmt(c, 1)).join(', ')}) — target ≤ 300 ms ${coldMedian <= 300 ? '✔' : '✘'}.`,
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

export default suite;
