/**
 * Server CPU per 1.7 JSON and SOAP GetAccessToken call: the emulator against a bare Hono handler
 * answering the same static bytes (the ceiling of this runtime), WireMock's and Mockoon's static
 * stubs. Each run starts its target anew, warms it up, then reads the server process's utime+stime
 * from /proc around one load run and divides by the answers the load generator counted. Two loads:
 * saturation, and a paced moderate rate (~2,000 req/s). Rounds interleave every target and rotate
 * the order; medians and ranges reported, with the load average at each run.
 */

import { unknownKeyMessage } from '../../dist/config/closest-key.js';
import {
  isJsonToken,
  isSoapToken,
  jsonRequest17,
  PATH_JSON_17,
  PATH_SOAP_17,
  soapRequest17,
} from '../lib/fixtures.js';
import { request } from '../lib/http.js';
import { ensureBenchPeers } from '../lib/install.js';
import {
  ensureLoadGenerator,
  type LoadGenerator,
  type LoadOptions,
  type LoadRequest,
  type LoadResult,
  pacingDelayMs,
} from '../lib/load.js';
import { stopAll, workDir } from '../lib/proc.js';
import { newestProfile, summarizeProfile } from '../lib/profile.js';
import { cpuTimeMs, rssMiB } from '../lib/rss.js';
import { type Server, startBareHono, startEmulator, startMockoon, startWireMock } from '../lib/servers.js';
import { envNumber, fmt, median, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

type Variant = 'json' | 'soap';
type Mode = 'saturation' | 'moderate';

interface Target {
  /** `json:emulator`, `soap:hono`, … */
  key: string;
  variant: Variant;
  peer: 'emulator' | 'hono' | 'wiremock' | 'mockoon';
  start(): Promise<Server>;
}

/** One measured run of one target. */
interface Sample {
  cpuUsPerCall: number;
  result: LoadResult;
  rssMiB: number | undefined;
  /** What the warm-up was, for the report (e.g. `50,000 calls`). */
  warmup: string;
}

function loadRequest(server: Server, variant: Variant): LoadRequest {
  const r = variant === 'json' ? jsonRequest17() : soapRequest17(server.soap);
  return { url: server.url + (variant === 'json' ? PATH_JSON_17 : PATH_SOAP_17), method: 'POST', ...r };
}

/** Checks one answer before loading a target, so a figure never counts error answers. */
async function answersToken(server: Server, variant: Variant): Promise<string | undefined> {
  const req = loadRequest(server, variant);
  const answer = await request(req.url, { method: 'POST', headers: req.headers!, body: req.body! });
  const ok = variant === 'json' ? isJsonToken(answer) : isSoapToken(answer);
  return ok ? undefined : `HTTP ${answer.status}: ${answer.body.slice(0, 160).replace(/\s+/g, ' ')}`;
}

/** One load run with the server's CPU time read from /proc just before and just after it. */
async function measured(
  generator: LoadGenerator,
  server: Server,
  req: LoadRequest,
  options: LoadOptions,
): Promise<{ result: LoadResult; cpuUsPerCall: number }> {
  const before = cpuTimeMs(server.proc.pid);
  const result = await generator.run(req, options);
  const after = cpuTimeMs(server.proc.pid);
  if (before === undefined || after === undefined) {
    throw new Error(`${server.label}: no CPU time in /proc/${server.proc.pid}/stat`);
  }
  const answers = result.total;
  if (!answers) throw new Error(`${server.label}: no answer during the run`);
  return { result, cpuUsPerCall: ((after - before) * 1000) / answers };
}

/**
 * `BENCH_TARGETS=json:emulator,json:hono`: only those targets (e.g. while working on one bar; the
 * section then lists only them). An unknown name is an error naming the closest one.
 */
function chosenTargets(all: Target[]): Target[] {
  const wanted = process.env.BENCH_TARGETS?.split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (!wanted?.length) return all;
  const keys = all.map((t) => t.key);
  for (const key of wanted) {
    if (!keys.includes(key))
      throw new Error(
        `BENCH_TARGETS: ${unknownKeyMessage('target', key, keys)}; targets: ${keys.join(', ')}`,
      );
  }
  return all.filter((t) => wanted.includes(t.key));
}

const suite: BenchSuite = {
  name: 'peers-throughput',
  title: 'GetAccessToken 1.7: server CPU per call, side by side',
  async run(log) {
    const generator = ensureLoadGenerator(log);
    const satConnections = envNumber('BENCH_CONNECTIONS', 50, 50);
    const modRate = envNumber('BENCH_MODERATE_RPS', 2_000, 2_000);
    const modConnections = envNumber('BENCH_MODERATE_CONNECTIONS', 20, 20);
    const durationSec = envNumber('BENCH_DURATION_S', 5, 2);
    const warmupCalls = envNumber('BENCH_WARMUP_CALLS', 20_000, 10_000);
    const rounds = envNumber('BENCH_ROUNDS', 3, 2);
    const wiremockCalls = envNumber('BENCH_WIREMOCK_CALLS', 50_000, 50_000);
    const settleMax = envNumber('BENCH_WIREMOCK_SETTLE_CALLS', 300_000, 100_000);
    const settleWindowSec = 2;
    const settleTolerance = 0.05;
    const delayMs = pacingDelayMs(modConnections, modRate);
    const loadFor = (mode: Mode): LoadOptions =>
      mode === 'saturation'
        ? { connections: satConnections, durationSec }
        : { connections: modConnections, durationSec, ratePerSec: modRate };

    const notes: string[] = [];
    const targets = chosenTargets([
      { key: 'json:emulator', variant: 'json', peer: 'emulator', start: () => startEmulator() },
      { key: 'json:hono', variant: 'json', peer: 'hono', start: () => startBareHono() },
      { key: 'json:wiremock', variant: 'json', peer: 'wiremock', start: () => startWireMock() },
      { key: 'json:mockoon', variant: 'json', peer: 'mockoon', start: () => startMockoon() },
      { key: 'soap:emulator', variant: 'soap', peer: 'emulator', start: () => startEmulator() },
      { key: 'soap:hono', variant: 'soap', peer: 'hono', start: () => startBareHono() },
    ]);
    if (targets.some((t) => t.peer === 'wiremock' || t.peer === 'mockoon')) ensureBenchPeers(log);
    const labels = new Map<string, string>();
    const skipped = new Set<string>();
    const samples = new Map<string, Sample[]>();
    const add = (key: string, s: Sample) => samples.set(key, [...(samples.get(key) ?? []), s]);
    const settleNotes: string[] = [];

    /** Saturating load in 2 s windows until `calls` answers were counted; answers the count. */
    const warmCalls = async (req: LoadRequest, calls: number): Promise<number> => {
      let total = 0;
      while (total < calls) {
        total += (await generator.run(req, { connections: satConnections, durationSec: settleWindowSec }))
          .total;
      }
      return total;
    };

    /** Saturating 2 s windows until two in a row cost within 5% of server CPU per call, or the cap. */
    const settle = async (server: Server, req: LoadRequest, done: number): Promise<string> => {
      const cpuStart = cpuTimeMs(server.proc.pid);
      let previous: number | undefined;
      let calls = done;
      let settled = false;
      while (calls < settleMax) {
        const w = await measured(generator, server, req, {
          connections: satConnections,
          durationSec: settleWindowSec,
        });
        calls += w.result.total;
        if (previous !== undefined && Math.abs(w.cpuUsPerCall - previous) <= settleTolerance * previous) {
          settled = true;
          break;
        }
        previous = w.cpuUsPerCall;
      }
      const cpuEnd = cpuTimeMs(server.proc.pid);
      const cpuSec =
        cpuStart !== undefined && cpuEnd !== undefined ? fmt((cpuEnd - cpuStart) / 1000, 1) : '?';
      return `${fmt(calls)} calls (${settled ? 'settled' : 'cap reached, not settled'}; ${cpuSec} CPU-s of loading after the first ${fmt(done)})`;
    };

    const runOne = async (t: Target, mode: Mode, round: number): Promise<void> => {
      if (skipped.has(t.key)) return;
      let server: Server;
      try {
        server = await t.start();
      } catch (err) {
        const message = (err as Error).message.split('\n')[0]!;
        notes.push(`- ${t.key}: could not start (${message}); not measured.`);
        skipped.add(t.key);
        log(message);
        return;
      }
      try {
        labels.set(t.peer, server.label);
        const problem = await answersToken(server, t.variant);
        if (problem) {
          notes.push(
            `- ${server.label} ${t.variant.toUpperCase()}: no token answer (${problem}); not measured.`,
          );
          skipped.add(t.key);
          return;
        }
        const req = loadRequest(server, t.variant);
        const warmed = await warmCalls(req, t.peer === 'wiremock' ? wiremockCalls : warmupCalls);
        const warmup = `${fmt(warmed)} calls`;
        const record = async (key: string, warm: string) => {
          const m = await measured(generator, server, req, loadFor(mode));
          const r = m.result;
          add(`${mode}:${key}`, { ...m, rssMiB: rssMiB(server.proc.pid), warmup: warm });
          log(
            `round ${round + 1} ${mode} ${key}: ${fmt(m.cpuUsPerCall, 1)} µs CPU/call, ${fmt(r.rps)} req/s, p99 ${r.p99Ms} ms, load ${fmt(r.load1, 2)}` +
              (r.errors || r.non2xx ? `, ${r.errors} errors, ${r.non2xx} non-2xx` : ''),
          );
          return r.total;
        };
        const measuredCalls = await record(t.key, warmup);
        if (t.peer === 'wiremock' && settleMax > 0) {
          const how = await settle(server, req, warmed + measuredCalls);
          settleNotes.push(`round ${round + 1}, ${mode}: ${how}`);
          await record(`${t.key}:settled`, how);
        }
      } finally {
        await server.stop();
      }
    };

    try {
      for (let round = 0; round < rounds; round++) {
        for (const mode of ['saturation', 'moderate'] as const) {
          const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
          for (const t of order) await runOne(t, mode, round);
        }
      }

      const cpu = (key: string) => (samples.get(key) ?? []).map((s) => s.cpuUsPerCall);
      const med = (key: string) => (cpu(key).length ? median(cpu(key)) : undefined);
      /** a's speed relative to b: b's CPU per call ÷ a's. */
      const speed = (a: string, b: string) => {
        const ma = med(a);
        const mb = med(b);
        return ma && mb ? mb / ma : undefined;
      };
      /** Median of the same-round ratios (samples in round order; both present each round). */
      const roundSpeed = (a: string, b: string) => {
        const ra = cpu(a);
        const rb = cpu(b);
        const n = Math.min(ra.length, rb.length);
        return n ? median(Array.from({ length: n }, (_, i) => rb[i]! / ra[i]!)) : undefined;
      };
      const x = (n: number | undefined) => (n === undefined ? 'n/a' : `${fmt(n, 2)}×`);

      const rowKeys = [
        ['json:emulator', 'reportbo-emulator', 'json'],
        ['json:hono', 'hono', 'json'],
        ['json:wiremock', 'wiremock', 'json'],
        ['json:wiremock:settled', 'wiremock', 'json'],
        ['json:mockoon', 'mockoon', 'json'],
        ['soap:emulator', 'reportbo-emulator', 'soap'],
        ['soap:hono', 'hono', 'soap'],
      ] as const;
      const label = (key: string, peer: string) =>
        (labels.get(peer) ?? (peer === 'reportbo-emulator' ? 'reportbo-emulator' : peer)) +
        (key.endsWith(':settled')
          ? ', JIT settled'
          : key.includes('wiremock')
            ? `, after ${fmt(wiremockCalls)} calls`
            : '');

      const sections: string[] = [];
      for (const mode of ['saturation', 'moderate'] as const) {
        const rows = rowKeys
          .filter(([key]) => samples.has(`${mode}:${key}`))
          .map(([key, peer, variant]) => {
            const runs = samples.get(`${mode}:${key}`)!;
            const values = runs.map((s) => s.cpuUsPerCall);
            const errors = runs.reduce((n, s) => n + s.result.errors + s.result.non2xx, 0);
            const rss = runs.map((s) => s.rssMiB).filter((v): v is number => v !== undefined);
            return [
              `${label(key, peer)} (${variant === 'json' ? 'JSON' : 'SOAP 1.1'})`,
              `${fmt(median(values), 1)} µs (${fmt(Math.min(...values), 1)}–${fmt(Math.max(...values), 1)}, ${values.length} runs)`,
              x(speed(`${mode}:${key}`, `${mode}:${variant}:hono`)),
              `${fmt(median(runs.map((s) => s.result.rps)))} (${fmt(Math.min(...runs.map((s) => s.result.rps)))}–${fmt(Math.max(...runs.map((s) => s.result.rps)))})`,
              `${fmt(median(runs.map((s) => s.result.p50Ms)), 1)} ms`,
              `${fmt(median(runs.map((s) => s.result.p99Ms)), 1)} ms`,
              rss.length ? `${fmt(median(rss))} MiB` : 'n/a',
              errors ? `**${fmt(errors)}**` : '0',
            ];
          });
        sections.push(
          `### ${mode === 'saturation' ? `Saturation (${satConnections} connections, as fast as each target answers)` : `Moderate rate (${modConnections} connections, each waiting ${delayMs} ms before each request: ~${fmt(modRate)} req/s asked)`}\n\n` +
            table(
              [
                'Target',
                'server CPU per call, median (min–max)',
                'bare Hono ÷ this',
                'achieved req/s median (min–max)',
                'p50',
                'p99',
                'RSS after',
                'errors',
              ],
              rows,
            ),
        );
      }

      const bar = (target: string, a: string, b: string, min: number): Verdict => {
        const s = speed(a, b);
        const rr = roundSpeed(a, b);
        const ma = med(a);
        const mb = med(b);
        return {
          target,
          figure:
            s !== undefined && ma && mb
              ? `${fmt(mb, 1)} ÷ ${fmt(ma, 1)} µs = ${x(s)} (median of same-round ratios ${x(rr)})`
              : 'n/a',
          met: s === undefined ? undefined : s >= min,
        };
      };
      const verdicts: Verdict[] = [
        bar(
          '1.7 JSON ≥ 0.65× the bare Hono handler at saturation',
          'saturation:json:emulator',
          'saturation:json:hono',
          0.65,
        ),
        bar(
          `1.7 JSON ≥ 0.75× the bare Hono handler at ~${fmt(modRate)} req/s`,
          'moderate:json:emulator',
          'moderate:json:hono',
          0.75,
        ),
        bar(
          'SOAP 1.1 ≥ 0.7× our own 1.7 JSON at saturation',
          'saturation:soap:emulator',
          'saturation:json:emulator',
          0.7,
        ),
        bar(
          `SOAP 1.1 ≥ 0.7× our own 1.7 JSON at ~${fmt(modRate)} req/s`,
          'moderate:soap:emulator',
          'moderate:json:emulator',
          0.7,
        ),
      ];
      const stated = ['json:wiremock', 'json:wiremock:settled', 'json:mockoon'].map((peer) => [
        `1.7 JSON: ${label(peer, peer.split(':')[1]!)} ÷ reportbo-emulator`,
        ...(['saturation', 'moderate'] as const).map((mode) => {
          const s = speed(`${mode}:json:emulator`, `${mode}:${peer}`);
          return s === undefined
            ? 'n/a'
            : `${x(s)} (${fmt(med(`${mode}:${peer}`)!, 1)} vs ${fmt(med(`${mode}:json:emulator`)!, 1)} µs)`;
        }),
      ]);
      const all = [...samples.values()].flat();
      const loads = all.map((s) => s.result.load1);

      // Profile a missed bar's target alone, after every measured process stopped.
      await stopAll();
      const profiles: string[] = [];
      const missed = new Set<Variant>();
      if (verdicts[0]!.met === false || verdicts[1]!.met === false) missed.add('json');
      if (verdicts[2]!.met === false || verdicts[3]!.met === false) missed.add('soap');
      if (process.env.BENCH_PROFILE) missed.add('json').add('soap');
      for (const variant of missed) {
        const dir = workDir('profiles', `throughput-${variant}-${Date.now()}`);
        const s = await startEmulator({ cpuProfDir: dir });
        try {
          const r = await generator.run(loadRequest(s, variant), {
            connections: satConnections,
            durationSec,
          });
          log(`profiled ${variant}: ${fmt(r.rps)} req/s under --cpu-prof`);
        } finally {
          await s.stop();
        }
        const file = newestProfile(dir);
        profiles.push(
          `#### CPU profile: emulator under 1.7 ${variant.toUpperCase()} load at saturation (${durationSec} s)\n\n` +
            (file ? summarizeProfile(file) : 'No profile was written (the process did not exit cleanly).'),
        );
      }

      return [
        `Load generator: **${generator.label}**, in its own process. Each run starts its target as a`,
        `**fresh process**, checks it answers a token, warms it up at saturation (at least ${fmt(warmupCalls)} calls;`,
        `WireMock: ${fmt(wiremockCalls)}), then loads it for ${durationSec} s; the figure is the server`,
        "process's utime+stime from `/proc/<pid>/stat` over that run (every thread: the JVM's compiler and",
        'GC included) ÷ the answers wrk counted. Saturation: as fast as the target answers. Moderate: a',
        `wrk Lua \`delay()\` of ${delayMs} ms before each request on each of ${modConnections} connections (~${fmt(modRate)} req/s`,
        'asked; the achieved rate is in the table). WireMock runs with `--no-request-journal`; after its',
        `${fmt(wiremockCalls)}-call figure the same process keeps being loaded in ${settleWindowSec} s windows until two windows in a`,
        `row cost within ${settleTolerance * 100}% of each other (at most ${fmt(settleMax)} calls), then is measured again ("JIT settled").`,
        `${rounds} rounds; in each, both loads, every target in an order rotated each round; medians and`,
        `ranges of the runs. Load average (1 min) at the start of the runs: ${loads.length ? `${fmt(Math.min(...loads), 2)}–${fmt(Math.max(...loads), 2)}, median ${fmt(median(loads), 2)}` : 'n/a'}.`,
        'Prism: not measured (bench/package.json does not pin it).',
        ...(generator.note ? ['', `**Note:** ${generator.note}`] : []),
        '',
        ...sections.flatMap((s) => [s, '']),
        verdictTable(verdicts),
        '',
        'Stated, not gated (CPU per call, the peer ÷ the emulator: above 1× the emulator costs less):',
        '',
        table(['Comparison', 'saturation', `~${fmt(modRate)} req/s`], stated),
        ...(settleNotes.length ? ['', `WireMock's JIT settling: ${settleNotes.join('; ')}.`] : []),
        notes.length ? `\nNot measured:\n${notes.join('\n')}` : '',
        ...(missed.has('json') && verdicts.slice(0, 2).some((v) => v.met === false) ? ['', JSON_MISS] : []),
        ...profiles.map((p) => `\n${p}`),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

/** The written reason of a 1.7 JSON miss, beside its profile (decision 0035). */
const JSON_MISS = `#### Where a 1.7 JSON call's CPU goes

Decision 0053 (docs/decisions/0053-json-throughput-bar-and-the-log-line.md) has the breakdown: the
bare Hono handler spends ~42 µs of CPU per call at saturation, ~25 µs of it in the response's
\`writev(2)\`; the emulator adds reading and checking the body, issuing and remembering a token,
journaling the call with its request and answer, rendering the answer and its log line (condensed
under load, decision 0140). The profile below shows where this run's time went.`;

export default suite;
