/**
 * The soak (issue 31 §4): `npm run bench:soak` (BENCH_SOAK_MINUTES, default 25). The emulator runs
 * from dist/ with `--data-dir` and `--notification-retention`; a load process (bench/lib/soak-load.mjs)
 * calls GetAccessToken and redelivers reservations (one notification each) at fixed rates for the
 * whole run, a receiver process answers 200. Every 10 s: the emulator's RSS and CPU (utime+stime from
 * /proc), the window's token and event latencies (p50/p99/max), and the 1-minute load average.
 * Compactions are read from the emulator's log (`data dir compacted in N ms`). Prints a Markdown
 * section for docs/benchmarks.md and writes the raw windows to bench/.work/soak.json.
 * Pass: RSS after the first 5 minutes stays within 20% of its value at 5 minutes; token p99 under 50 ms
 * in the windows that overlap a compaction. Figures, not a test: the machine may be shared.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { json } from './lib/http.js';
import { ROOT, workDir } from './lib/proc.js';
import { startReceiver } from './lib/receiver.js';
import { cpuTimeMs, type HeapHookReading, rssMiB } from './lib/rss.js';
import { startEmulator } from './lib/servers.js';

const MINUTES = Number(process.env.BENCH_SOAK_MINUTES ?? 25);
const TOKENS_PER_SEC = Number(process.env.BENCH_SOAK_TOKENS ?? 100);
const EVENTS_PER_SEC = Number(process.env.BENCH_SOAK_EVENTS ?? 20);
const RETENTION = Number(process.env.BENCH_SOAK_RETENTION ?? 5000);
const RESERVATIONS = 50;
/** Extra node flags for the emulator (e.g. `--optimize-for-size`); the section says which were used. */
const NODE_ARGS = (process.env.BENCH_SOAK_NODE_ARGS ?? '').split(' ').filter(Boolean);

interface Window {
  t: number;
  wallMs: number;
  tokens: { n: number; p50: number | null; p99: number | null; max: number | null; errors: number };
  events: { n: number; p50: number | null; p99: number | null; max: number | null; errors: number };
  /** What the window's failed calls got (`HTTP 503`, `ECONNRESET`), counted. */
  why?: Record<string, number>;
  rssMiB?: number;
  cpuMs?: number;
  load1?: number;
  /** Once a minute: where the resident memory is (bench/lib/heap-hook.mjs, no collection forced), MiB. */
  memory?: Memory;
}

/** The figures read once a minute, MiB: the heap hook's (bench/lib/rss.ts) and V8's main spaces (committed). */
type Memory = Record<
  Exclude<keyof HeapHookReading, 'rss' | 'spaces'> | 'oldSpace' | 'newSpace' | 'largeObjects' | 'code',
  number
>;

const MiB = 1024 * 1024;

/** Asks the emulator's heap hook for its memory as it is (SIGUSR2, no GC) and waits for the file. */
async function memoryOf(pid: number, out: string, n: number): Promise<Memory | undefined> {
  const file = `${out}.${n}.json`;
  process.kill(pid, 'SIGUSR2');
  for (let i = 0; i < 100 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 50));
  if (!existsSync(file)) return undefined;
  const raw = JSON.parse(readFileSync(file, 'utf8')) as HeapHookReading;
  rmSync(file);
  const round = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;
  const mib = (k: Exclude<keyof HeapHookReading, 'spaces'>) => round(raw[k]);
  const space = (name: string) => round(raw.spaces[name]?.size ?? 0);
  return {
    heapTotal: mib('heapTotal'),
    heapUsed: mib('heapUsed'),
    external: mib('external'),
    arrayBuffers: mib('arrayBuffers'),
    brkHeap: mib('brkHeap'),
    anon: mib('anon'),
    fileBacked: mib('fileBacked'),
    oldSpace: space('old_space'),
    newSpace: space('new_space'),
    largeObjects: space('large_object_space'),
    code: space('code_space'),
  };
}

async function main(): Promise<void> {
  const dataDir = join(mkdtempSync(join(os.tmpdir(), 'reportbo-soak-')), 'data');
  const receiver = await startReceiver();
  const memoryOut = join(workDir('heap'), `soak-${process.pid}`);
  let readings = 0;
  const emulator = await startEmulator({
    // Reads the memory by kind once a minute without forcing a collection (where does RSS grow?).
    nodeArgs: ['--import', join(ROOT, 'bench', 'lib', 'heap-hook.mjs'), ...NODE_ARGS],
    env: { BENCH_HEAP_OUT: memoryOut, BENCH_HEAP_GC: '0' },
    args: [
      '--data-dir',
      dataDir,
      '--notification-retention',
      String(RETENTION),
      '--allow-http',
      '--log-format',
      'json',
      '--log-level',
      'info',
    ],
    config: { credentials: [{ id: 'soak', apiKey: 'soak-key-0001', url: receiver.url }] },
  });
  const admin = (path: string, body?: unknown) =>
    json<Record<string, unknown>>(`${emulator.url}/__admin${path}`, body === undefined ? {} : { body });
  const ids: number[] = [];
  for (let i = 0; i < RESERVATIONS; i++) {
    const r = (await admin('/events', { type: 'Issue' })) as { reservations: Array<{ bookingId: number }> };
    ids.push(r.reservations[0]!.bookingId);
  }
  const windows: Window[] = [];
  const load = spawn(
    process.execPath,
    [
      join(ROOT, 'bench', 'lib', 'soak-load.mjs'),
      emulator.url,
      String(MINUTES * 60),
      String(TOKENS_PER_SEC),
      String(EVENTS_PER_SEC),
      ids.join(','),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = emulator.proc.pid;
  const cpuStart = cpuTimeMs(pid) ?? 0;
  const started = Date.now();
  for await (const line of createInterface({ input: load.stdout! })) {
    const w = JSON.parse(line) as Window;
    if (w.tokens.n === 0 && w.events.n === 0) continue; // after the end
    w.rssMiB = rssMiB(pid);
    w.cpuMs = (cpuTimeMs(pid) ?? 0) - cpuStart;
    w.load1 = os.loadavg()[0];
    if (Math.round(w.t / 10) % 6 === 0) w.memory = await memoryOf(pid, memoryOut, ++readings);
    windows.push(w);
    process.stderr.write(
      `soak ${w.t}s: rss ${w.rssMiB?.toFixed(1)} MiB${w.memory ? ` ${JSON.stringify(w.memory)}` : ''}, token p99 ${w.tokens.p99?.toFixed(1)} ms (${w.tokens.n}), event p99 ${w.events.p99?.toFixed(1)} ms (${w.events.n}), load ${(w.load1 ?? 0).toFixed(1)}\n`,
    );
  }
  const listed = (await admin('/notifications?state=delivered')) as { retention?: unknown };
  const log = readFileSync(emulator.proc.logFile, 'utf8');
  await emulator.stop();
  await receiver.stop();
  rmSync(join(dataDir, '..'), { recursive: true, force: true });

  const compactions = log
    .split('\n')
    .filter((l) => l.includes('data dir compacted'))
    .map(
      (l) =>
        JSON.parse(l) as {
          time: string;
          compactionMs: number;
          captureMs: number;
          records: number;
          bytes: number;
        },
    );
  const settle = windows.find((w) => w.t >= 300);
  const after = windows.filter((w) => w.t >= 300 && w.rssMiB !== undefined);
  const rssAt5 = settle?.rssMiB ?? Number.NaN;
  const rssMin = Math.min(...after.map((w) => w.rssMiB!));
  const rssMax = Math.max(...after.map((w) => w.rssMiB!));
  const during = windows.filter((w) =>
    compactions.some((c) => {
      const end = Date.parse(c.time);
      const start = end - c.compactionMs;
      return start <= w.wallMs && end >= w.wallMs - 10_000;
    }),
  );
  const p99s = (ws: Window[]) => ws.map((w) => w.tokens.p99 ?? 0);
  const worst = (xs: number[]) => (xs.length ? Math.max(...xs) : Number.NaN);
  const result = {
    minutes: MINUTES,
    tokensPerSec: TOKENS_PER_SEC,
    eventsPerSec: EVENTS_PER_SEC,
    retention: RETENTION,
    rssAt5MiB: rssAt5,
    rssMinAfter5MiB: rssMin,
    rssMaxAfter5MiB: rssMax,
    rssWithin20: rssMax <= rssAt5 * 1.2 && rssMin >= rssAt5 * 0.8,
    tokenP99WorstMs: worst(p99s(windows)),
    tokenP99MedianMs: p99s(windows).sort((a, b) => a - b)[Math.floor(windows.length / 2)],
    tokenP99DuringCompactionMs: worst(p99s(during)),
    eventP99WorstMs: worst(windows.map((w) => w.events.p99 ?? 0)),
    compactions,
    tokens: windows.reduce((a, w) => a + w.tokens.n, 0),
    events: windows.reduce((a, w) => a + w.events.n, 0),
    errors: windows.reduce((a, w) => a + w.tokens.errors + w.events.errors, 0),
    errorKinds: windows.reduce<Record<string, number>>((all, w) => {
      for (const [k, n] of Object.entries(w.why ?? {})) all[k] = (all[k] ?? 0) + n;
      return all;
    }, {}),
    serverCpuMs: windows.at(-1)?.cpuMs,
    load1: { min: Math.min(...windows.map((w) => w.load1!)), max: Math.max(...windows.map((w) => w.load1!)) },
    retentionView: listed.retention,
    wallSec: Math.round((Date.now() - started) / 1000),
  };
  writeFileSync(join(workDir(), 'soak.json'), JSON.stringify({ result, windows }, null, 2));
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
  process.stdout.write(
    [
      `### Soak: ${MINUTES} minutes, ${TOKENS_PER_SEC} GetAccessToken/s + ${EVENTS_PER_SEC} events/s, --data-dir, --notification-retention ${RETENTION}${NODE_ARGS.length ? `, node ${NODE_ARGS.join(' ')}` : ''}`,
      '',
      '| Figure | Value |',
      '|---|---|',
      `| calls | ${result.tokens} GetAccessToken, ${result.events} events (redeliveries), ${result.errors} errors${
        result.errors
          ? ` (${Object.entries(result.errorKinds)
              .map(([k, n]) => `${k}: ${n}`)
              .join(', ')})`
          : ''
      } |`,
      `| RSS at 5 min / min–max after | ${f(rssAt5)} MiB / ${f(rssMin)}–${f(rssMax)} MiB (${result.rssWithin20 ? 'within' : 'NOT within'} 20%) |`,
      `| token p99 per 10 s window: median / worst | ${f(result.tokenP99MedianMs ?? Number.NaN)} ms / ${f(result.tokenP99WorstMs)} ms |`,
      `| token p99 in windows overlapping a compaction | ${f(result.tokenP99DuringCompactionMs)} ms (${during.length} windows) |`,
      `| event p99 worst window | ${f(result.eventP99WorstMs)} ms |`,
      `| compactions | ${compactions.map((c) => `${c.compactionMs} ms (loop held ${c.captureMs} ms; ${c.records} records, ${(c.bytes / 1048576).toFixed(1)} MiB)`).join('; ') || 'none'} |`,
      `| memory by kind, MiB, at 5 min → end (no collection forced) | ${memoryGrowth(windows)} |`,
      `| server CPU | ${f((result.serverCpuMs ?? 0) / 1000)} s over ${result.wallSec} s |`,
      `| 1-minute load average (shared machine) | ${f(result.load1.min)}–${f(result.load1.max)} |`,
      '',
    ].join('\n'),
  );
}

/** Each kind of memory at the first reading after 5 minutes and at the last one. */
function memoryGrowth(windows: Window[]): string {
  const read = windows.filter((w) => w.memory !== undefined);
  const first = read.find((w) => w.t >= 300)?.memory;
  const last = read.at(-1)?.memory;
  if (!first || !last) return 'not read';
  return (Object.keys(first) as Array<keyof Memory>).map((k) => `${k} ${first[k]} → ${last[k]}`).join(', ');
}

main().catch((err: unknown) => {
  process.stderr.write(`soak: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
