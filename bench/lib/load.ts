/**
 * HTTP load from a generator in its **own process**, never the bench's: `wrk` (C, multi-threaded;
 * the Debian package, installed by `ensureLoadGenerator` when missing and running as root), or,
 * when wrk cannot be had, autocannon in a child Node process (slower: one JS thread; the report
 * says which generator produced its figures). The same generator loads every target of a run.
 *
 * `alternate` runs every target once per round, rotating the order each round, so slow drift of a
 * shared machine (other jobs, thermal limits) spreads over all targets instead of biasing the one
 * measured last.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { ROOT, workDir } from './proc.js';

/** A request the load generator repeats. */
export interface LoadRequest {
  url: string;
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** One run's figures; `rps` counts only 2xx answers. */
export interface LoadResult {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers received (2xx and others). */
  total: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  /** 1-minute load average when the run started. */
  load1: number;
}

export interface LoadOptions {
  connections: number;
  durationSec: number;
  /**
   * Paced load instead of saturation: about this many requests a second over all connections.
   * wrk: each connection waits `connections / rate` seconds (a Lua `delay()`, whole milliseconds)
   * before each request, so the achieved rate is a little lower (the answer's own time adds);
   * autocannon: its `overallRate`. Either way the result's `rps` is what was achieved.
   */
  ratePerSec?: number;
}

/** The generator every throughput figure of a run comes from. */
export interface LoadGenerator {
  name: 'wrk' | 'autocannon';
  /** e.g. `wrk 4.1.0 (2 threads)` */
  label: string;
  /** Set when the preferred generator (wrk) could not be used, saying why. */
  note?: string;
  run(req: LoadRequest, options: LoadOptions): Promise<LoadResult>;
}

/** wrk threads: one per core, as wrk's documentation suggests (the figures: `-t2`). */
const WRK_THREADS = Math.max(1, Math.min(2, os.cpus().length));

function which(cmd: string): string | undefined {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() || undefined : undefined;
}

/** Installs wrk with apt-get when missing and running as root; answers why not otherwise. */
function installWrk(log: (line: string) => void): string | undefined {
  if (which('wrk')) return undefined;
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) {
    return 'wrk is not installed and the bench is not running as root (install it with `apt-get install -y wrk`)';
  }
  if (!which('apt-get')) return 'wrk is not installed and there is no apt-get to install it';
  log('wrk missing: apt-get install -y wrk');
  const apt = (args: string[]) =>
    spawnSync('apt-get', args, {
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).status;
  if (apt(['install', '-y', 'wrk']) !== 0) {
    // A fresh container has no package lists yet.
    apt(['update']);
    if (apt(['install', '-y', 'wrk']) !== 0) return '`apt-get install -y wrk` failed';
  }
  return which('wrk') ? undefined : '`apt-get install -y wrk` did not provide wrk';
}

let chosen: LoadGenerator | undefined;

/** The generator for this bench run: wrk (installed when needed) or autocannon in a child process. */
export function ensureLoadGenerator(log: (line: string) => void = console.error): LoadGenerator {
  if (chosen) return chosen;
  if (process.env.BENCH_GENERATOR === 'autocannon') {
    chosen = autocannonChild('BENCH_GENERATOR=autocannon');
    return chosen;
  }
  const why = installWrk(log);
  if (why) {
    log(`${why}: falling back to autocannon in a child process`);
    chosen = autocannonChild(why);
  } else {
    const version = /wrk\s+(?:debian\/)?([\d.]+)/.exec(
      spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stdout,
    )?.[1];
    chosen = {
      name: 'wrk',
      label: `wrk ${version ?? ''} (${WRK_THREADS} threads)`.replace('  ', ' '),
      run: runWrk,
    };
  }
  return chosen;
}

/** A Lua long string that cannot end early. */
function luaString(text: string): string {
  let eq = '=';
  while (text.includes(`]${eq}]`)) eq += '=';
  return `[${eq}[${text}]${eq}]`;
}

let scriptCounter = 0;

/** The per-request wait of each connection, in whole ms, for `rate` requests a second in all. */
export function pacingDelayMs(connections: number, ratePerSec: number): number {
  return Math.max(1, Math.round((connections * 1000) / ratePerSec));
}

function wrkScript(req: LoadRequest, delayMs?: number): string {
  const lines = [`wrk.method = ${luaString(req.method ?? 'POST')}`];
  if (delayMs !== undefined) lines.push(`delay = function() return ${delayMs} end`);
  if (req.body !== undefined) lines.push(`wrk.body = ${luaString(req.body)}`);
  for (const [k, v] of Object.entries(req.headers ?? {})) {
    lines.push(`wrk.headers[ ${luaString(k)} ] = ${luaString(v)}`);
  }
  lines.push(
    'done = function(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format("BENCH_RESULT %d %d %d %d %d %d %d %d %d\\n", summary.requests, summary.duration,',
    '    e.connect, e.read, e.write, e.status, e.timeout, latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  const file = join(workDir('wrk'), `load-${process.pid}-${++scriptCounter}.lua`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function runChild(command: string, args: string[], cwd = ROOT): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c;
    });
    child.stderr.on('data', (c: Buffer) => {
      err += c;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}: ${(err || out).slice(-500)}`)),
    );
  });
}

async function runWrk(req: LoadRequest, options: LoadOptions): Promise<LoadResult> {
  const load1 = os.loadavg()[0]!;
  const connections = Math.max(options.connections, WRK_THREADS);
  const script = wrkScript(
    req,
    options.ratePerSec ? pacingDelayMs(connections, options.ratePerSec) : undefined,
  );
  const out = await runChild('wrk', [
    '-t',
    String(WRK_THREADS),
    '-c',
    String(connections),
    '-d',
    `${options.durationSec}s`,
    '--timeout',
    '10s',
    '-s',
    script,
    req.url,
  ]);
  const m = /BENCH_RESULT ([\d ]+)/.exec(out);
  if (!m) throw new Error(`wrk: no result line in its output:\n${out.slice(-500)}`);
  const [requests, durationUs, connect, read, write, status, timeout, p50Us, p99Us] = m[1]!
    .trim()
    .split(' ')
    .map(Number) as [number, number, number, number, number, number, number, number, number];
  const ok = requests - status;
  return {
    rps: ok / (durationUs / 1e6),
    p50Ms: p50Us / 1000,
    p99Ms: p99Us / 1000,
    total: requests,
    errors: connect + read + write + timeout,
    non2xx: status,
    load1,
  };
}

/** autocannon (the project's dev dependency) in a child Node process: the fallback generator. */
function autocannonChild(why: string): LoadGenerator {
  const version = (() => {
    try {
      return execFileSync(process.execPath, ['-p', "require('autocannon/package.json').version"], {
        cwd: ROOT,
        encoding: 'utf8',
      }).trim();
    } catch {
      return '';
    }
  })();
  return {
    name: 'autocannon',
    label: `autocannon ${version} in a child process (1 thread)`,
    note: `wrk was not used (${why}); autocannon is single-threaded JavaScript and saturates before a multi-threaded server does, so the figures are lower bounds and the ratios favour single-threaded targets.`,
    async run(req, options) {
      const load1 = os.loadavg()[0]!;
      const script = `
        const autocannon = require('autocannon');
        const o = JSON.parse(process.argv[1]);
        autocannon(o, (err, r) => {
          if (err) { console.error(err); process.exit(1); }
          console.log('BENCH_JSON ' + JSON.stringify({ ok: r['2xx'], non2xx: r.non2xx, errors: r.errors + r.timeouts,
            duration: r.duration, p50: r.latency.p50, p99: r.latency.p99 }));
        });`;
      const opts = {
        url: req.url,
        method: req.method ?? 'POST',
        headers: req.headers,
        body: req.body,
        connections: options.connections,
        pipelining: 1,
        duration: options.durationSec,
        timeout: 10,
        ...(options.ratePerSec ? { overallRate: options.ratePerSec } : {}),
      };
      const out = await runChild(process.execPath, ['-e', script, JSON.stringify(opts)]);
      const m = /BENCH_JSON (.*)/.exec(out);
      if (!m) throw new Error(`autocannon: no result in its output:\n${out.slice(-500)}`);
      const r = JSON.parse(m[1]!) as {
        ok: number;
        non2xx: number;
        errors: number;
        duration: number;
        p50: number;
        p99: number;
      };
      return {
        rps: r.ok / (r.duration || options.durationSec),
        p50Ms: r.p50,
        p99Ms: r.p99,
        total: r.ok + r.non2xx,
        errors: r.errors,
        non2xx: r.non2xx,
        load1,
      };
    },
  };
}

/**
 * Runs `measure` for every target in `rounds` rounds, rotating the order each round; answers the
 * results per target key, in round order.
 */
export async function alternate<T extends { key: string }, R>(
  targets: readonly T[],
  rounds: number,
  measure: (target: T, round: number) => Promise<R>,
): Promise<Map<string, R[]>> {
  const results = new Map<string, R[]>(targets.map((t) => [t.key, []]));
  for (let round = 0; round < rounds; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
    for (const target of order) results.get(target.key)!.push(await measure(target, round));
  }
  return results;
}
