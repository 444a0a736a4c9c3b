/**
 * Cold start: spawn to the first successful 1.7 JSON GetAccessToken, for the emulator's CLI (user
 * preloaded with `--config`, `--port 0`), a user's process calling `startEmulator` (from the package
 * entry and from `reportbo-emulator/start`), WireMock's standalone jar and Mockoon's CLI serving the
 * same static answer, plus the bare Hono handler as the runtime's floor. Wall time and the process's
 * CPU time at that first answer. Rounds alternate the order.
 */
import { ensureBenchPeers } from '../lib/install.js';
import { alternate } from '../lib/load.js';
import { stopAll, workDir } from '../lib/proc.js';
import { newestProfile, summarizeProfile } from '../lib/profile.js';
import { cpuTimeMs, rssMiB } from '../lib/rss.js';
import {
  type Server,
  startBareHono,
  startEmulator,
  startMockoon,
  startProgrammatic,
  startWireMock,
} from '../lib/servers.js';
import { envNumber, fmt, median, ratio, spread, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const TARGETS = [
  { key: 'emulator', start: () => startEmulator() },
  { key: 'programmatic-index', start: () => startProgrammatic('reportbo-emulator') },
  { key: 'programmatic-start', start: () => startProgrammatic('reportbo-emulator/start') },
  { key: 'wiremock', start: () => startWireMock() },
  { key: 'mockoon', start: () => startMockoon() },
  { key: 'hono', start: () => startBareHono() },
] as const;

interface Sample {
  ms?: number;
  /** CPU time (user + system) of the process at its first answer. */
  cpuMs?: number;
  rss?: number;
  label?: string;
  error?: string;
}

const suite: BenchSuite = {
  name: 'peers-cold-start',
  title: 'Cold start to the first 1.7 JSON GetAccessToken, side by side',
  async run(log) {
    ensureBenchPeers(log);
    const rounds = envNumber('BENCH_COLD_ROUNDS', 7, 3);
    const failed = new Map<string, string>();
    try {
      const results = await alternate(TARGETS, rounds, async (t, round): Promise<Sample> => {
        if (failed.has(t.key)) return { error: failed.get(t.key)! };
        let server: Server | undefined;
        try {
          server = await t.start();
          const rss = rssMiB(server.proc.pid);
          const cpuMs = cpuTimeMs(server.proc.pid);
          log(
            `round ${round + 1}: ${server.label} ${fmt(server.coldStartMs, 1)} ms, CPU ${fmt(cpuMs ?? 0)} ms, RSS ${fmt(rss ?? 0)} MiB`,
          );
          return {
            ms: server.coldStartMs,
            ...(cpuMs === undefined ? {} : { cpuMs }),
            ...(rss === undefined ? {} : { rss }),
            label: server.label,
          };
        } catch (err) {
          const message = (err as Error).message.split('\n')[0]!;
          log(`round ${round + 1}: ${t.key} failed: ${message}`);
          failed.set(t.key, message);
          return { error: message };
        } finally {
          await server?.stop();
        }
      });

      const ms = (key: string) => results.get(key)!.flatMap((s) => (s.ms === undefined ? [] : [s.ms]));
      const wm = ms('wiremock');
      const rows = TARGETS.map((t) => {
        const samples = results.get(t.key)!;
        const times = ms(t.key);
        const rss = samples.flatMap((s) => (s.rss === undefined ? [] : [s.rss]));
        const cpu = samples.flatMap((s) => (s.cpuMs === undefined ? [] : [s.cpuMs]));
        const label = samples.find((s) => s.label)?.label ?? t.key;
        if (!times.length) return [label, `failed: ${samples[0]?.error ?? '?'}`, '', '', ''];
        return [
          label,
          spread(times, 0, ' ms'),
          cpu.length ? spread(cpu, 0, ' ms') : 'n/a',
          rss.length ? `${fmt(median(rss))} MiB` : 'n/a',
          wm.length ? ratio(median(times), median(wm)) : 'n/a',
        ];
      });

      const emu = ms('emulator');
      const verdict: Verdict = {
        target: 'Cold start ≤ 0.3× WireMock’s',
        figure:
          emu.length && wm.length
            ? `${fmt(median(emu))} ms vs ${fmt(median(wm))} ms = ${ratio(median(emu), median(wm))}`
            : 'n/a',
        met: emu.length && wm.length ? median(emu) <= 0.3 * median(wm) : undefined,
      };
      /** startEmulator's start minus the CLI's: medians, and the median of same-round differences. */
      const versusCli = (key: string, entry: string): Verdict => {
        const p = ms(key);
        const n = Math.min(p.length, emu.length);
        const same = n ? median(Array.from({ length: n }, (_, i) => p[i]! - emu[i]!)) : undefined;
        return {
          target: `\`startEmulator\` from '${entry}' within 30 ms of the CLI`,
          figure:
            p.length && emu.length
              ? `${fmt(median(p))} ms vs ${fmt(median(emu))} ms = ${median(p) >= median(emu) ? '+' : ''}${fmt(median(p) - median(emu))} ms (median of same-round differences ${fmt(same ?? 0)} ms)`
              : 'n/a',
          met: p.length && emu.length ? median(p) - median(emu) <= 30 : undefined,
        };
      };
      const verdicts = [
        verdict,
        versusCli('programmatic-start', 'reportbo-emulator/start'),
        versusCli('programmatic-index', 'reportbo-emulator'),
      ];
      let profile = '';
      // What each start-up trick buys: docs/perf-budget.md.
      if (verdict.met === false || process.env.BENCH_PROFILE) {
        const dir = workDir('profiles', `cold-start-${Date.now()}`);
        const s = await startEmulator({ cpuProfDir: dir });
        await s.stop();
        const file = newestProfile(dir);
        profile += file ? `\n\n#### CPU profile of one emulator start\n\n${summarizeProfile(file)}` : '';
      }
      if (verdict.met === false) profile = `\n\n${COLD_START_MISS}${profile}`;
      return [
        `Median of ${rounds} alternating rounds; each round spawns every tool, times spawn → first`,
        '200 answer carrying a token (polled every 2 ms), reads its RSS, and stops it. The emulator is',
        '`node bin/reportbo-emulator.js serve --port 0 --config <file with the bench user>` (the URL is',
        'read from its log line); `startEmulator` runs in `bench/peers/programmatic-start.mjs`, which imports',
        "the package by its name and starts it with the same user (a user's test process); the peers serve",
        "the static answer in `bench/peers/`. CPU is the process's utime+stime from `/proc` at the first answer.",
        '',
        table(
          ['Tool', 'Cold start median (min–max)', 'CPU at first answer', 'RSS at first answer', '× WireMock'],
          rows,
        ),
        '',
        verdictTable(verdicts),
        '',
        '`reportbo-emulator/start` is the entry for a test process that only starts emulators; the package',
        'entry also loads the scenario runner, the verify kit and the certificate tools (third line).',
        profile,
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

/** The written reason of a miss (decision 0032: a missed target shows its profile and reason). */
const COLD_START_MISS = `#### Why the target is missed

The bar is relative to WireMock's JVM start, and this machine moves both sides. The bare Hono
handler alone takes about half of the emulator's time, so the floor of any Node server on this
machine is ~0.1× WireMock. What the emulator adds on top is module loading (the profile's \`node
core\`: the ESM loader compiling and reading its modules) and zod building the settings schema.
Since decision 0050 start-up loads everything the server answers with at once (no lazy modules);
what would take time off is listed with its cost in docs/perf-budget.md.`;

export default suite;
