/**
 * GetAccessToken per variant: BENCH_API_CALLS calls (default 100,000) from the load generator in its
 * own process (wrk) to a fresh emulator, req/s and the RSS they leave (target: ≤ 150 MiB after
 * 100,000 calls, any variant); and cold start of the real CLI to the first successful 1.7 JSON token
 * (BENCH_API_COLD_RUNS runs, default 5).
 */
import { BENCH_USER } from '../lib/fixtures.js';
import { ensureLoadGenerator, type LoadRequest, type LoadResult } from '../lib/load.js';
import { stopAll } from '../lib/proc.js';
import { rssMiB } from '../lib/rss.js';
import { startEmulator } from '../lib/servers.js';
import { envNumber, fmt, median, table, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const CONNECTIONS = 50;
/** Length of one load run; runs repeat until the wanted number of calls was answered. */
const CHUNK_S = 5;
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
  /** A success answer contains this. */
  ok: RegExp;
}

const VARIANTS: Variant[] = [
  {
    name: '1.7 JSON',
    path: '/api/1.7/AuthService.json/GetAccessToken',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: U, Password: P }),
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
    ok: /<Token>[0-9a-f]{32}</,
  },
  {
    name: '1.7 SOAP 1.2',
    path: '/api/1.7/AuthService.asmx',
    headers: S12,
    body: env('1.2', op17),
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
    ok: /<GetAccessTokenResult>[0-9a-f]{32}</,
  },
];

const suite: BenchSuite = {
  name: 'api',
  title: 'GetAccessToken: req/s and RSS per variant, and cold start',
  async run(log) {
    const generator = ensureLoadGenerator(log);
    const calls = envNumber('BENCH_API_CALLS', 100_000, 20_000);
    const coldRuns = envNumber('BENCH_API_COLD_RUNS', 5, 2);
    try {
      const cold: number[] = [];
      for (let i = 0; i < coldRuns; i++) {
        const s = await startEmulator({ args: ['--log-level', 'info'] });
        cold.push(s.coldStartMs);
        log(`cold start ${i + 1}/${coldRuns}: ${fmt(s.coldStartMs, 1)} ms`);
        await s.stop();
      }
      const rows: string[][] = [];
      const rssAfter: number[] = [];
      for (const v of VARIANTS) {
        // A fresh process per variant, so its RSS after the calls is that variant's alone.
        const server = await startEmulator({ args: ['--log-level', 'info'] });
        try {
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
          const rssBefore = rssMiB(server.proc.pid) ?? 0;
          // Runs of CHUNK_S seconds until `calls` answers arrived (wrk cannot stop at a count).
          const runs: LoadResult[] = [];
          let total = 0;
          while (total < calls) {
            const run = await generator.run(req, { connections: CONNECTIONS, durationSec: CHUNK_S });
            if (run.total === 0) throw new Error(`${v.name}: no answer in ${CHUNK_S} s`);
            runs.push(run);
            total += run.total;
          }
          const r = {
            total,
            rps: median(runs.map((x) => x.rps)),
            p50Ms: median(runs.map((x) => x.p50Ms)),
            p99Ms: median(runs.map((x) => x.p99Ms)),
            errors: runs.reduce((n, x) => n + x.errors, 0),
            non2xx: runs.reduce((n, x) => n + x.non2xx, 0),
            load1: runs[0]!.load1,
          };
          const rss = rssMiB(server.proc.pid) ?? 0;
          rssAfter.push(rss);
          log(
            `${v.name}: ${fmt(r.total)} calls, ${fmt(r.rps)} req/s, p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}, non-2xx ${r.non2xx}, RSS ${fmt(rssBefore)} → ${fmt(rss)} MiB, load ${fmt(r.load1, 2)}`,
          );
          rows.push([
            v.name,
            fmt(r.total),
            fmt(r.rps),
            fmt(r.p50Ms, 2),
            fmt(r.p99Ms, 2),
            String(r.errors + r.non2xx),
            `${fmt(rssBefore)} → **${fmt(rss)}** MiB`,
            fmt(r.load1, 2),
          ]);
        } finally {
          await server.stop();
        }
      }
      const coldMedian = median(cold);
      const worstRss = Math.max(...rssAfter);
      return [
        `Load generator: **${generator.label}** in its own process, ${CONNECTIONS} connections. Each variant gets a`,
        `fresh emulator (the built CLI, \`serve --config\` with one user) and at least ${fmt(calls)} GetAccessToken calls`,
        `(${CHUNK_S} s runs until that many were answered; req/s, p50 and p99 are medians of those runs);`,
        'every answer is a fresh token (kept until it expires or the cap evicts it) and a journal entry.',
        'RSS is read from /proc before and right after the calls (no forced GC).',
        ...(generator.note ? ['', `**Note:** ${generator.note}`] : []),
        '',
        table(
          ['Variant', 'calls', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'RSS before → after', 'load avg'],
          rows,
        ),
        '',
        verdictTable([
          {
            target: `RSS after ${fmt(100_000)} token calls (any variant) ≤ 150 MiB`,
            figure: `worst ${fmt(worstRss)} MiB`,
            met: calls >= 100_000 ? worstRss <= 150 : undefined,
            ...(calls < 100_000 ? { note: `quick run with ${fmt(calls)} calls only` } : {}),
          },
        ]),
        '',
        `Cold start (spawn \`node bin/reportbo-emulator.js serve\` → first successful 1.7 JSON token), ${coldRuns} runs: median **${fmt(coldMedian, 1)} ms** (runs: ${cold.map((c) => fmt(c, 1)).join(', ')}).`,
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

export default suite;
