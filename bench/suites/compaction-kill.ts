/**
 * Kill -9 during compaction (issue 43 §3, decision 0164), through the real CLI: a data dir grown
 * past 64 MiB of journal by wrk posting Issue events (its own process; the receiver's port is
 * closed, so every first attempt fails and is journaled too), the emulator killed with SIGKILL as
 * soon as a background compaction has begun (its `snapshot.bin.N.tmp` appears), then started again
 * and killed again during the compaction that start begins, each round further into it. After each
 * kill: the data dir's bytes and files; for each start: spawn → ready (its URL file written, the
 * data dir read). Last, a start left to finish its compaction, and a start on what that left.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { json } from '../lib/http.js';
import { type Proc, ROOT, spawnProc, stopAll, waitFor, workDir } from '../lib/proc.js';
import { envNumber, fmt, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const MIB = 1024 * 1024;
/** The journal size past which the data dir compacts (src/store/data-dir.ts COMPACT_MIN_BYTES). */
const COMPACT_MIN_BYTES = 64 * MIB;
const GROW_DEADLINE_MS = 300_000;
const POLL_MS = 5;

const bytesIn = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
const journalBytes = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith('journal-'))
    .reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
const compacting = (dir: string) => readdirSync(dir).some((f) => /^snapshot\.bin\.\d+\.tmp$/.test(f));
const files = (dir: string) =>
  readdirSync(dir)
    .filter((f) => /^(journal-\d+\.bin|snapshot\.bin.*)$/.test(f))
    .sort()
    .join(' ');

interface Started {
  proc: Proc;
  url: string;
  startMs: number;
}

const suite: BenchSuite = {
  name: 'compaction-kill',
  title: 'Kill -9 during compaction: data dir size and start time after each',
  async run(log) {
    const rounds = envNumber('BENCH_COMPACTION_KILLS', 8, 3);
    const work = workDir('compaction-kill');
    const dataDir = join(work, 'data');
    rmSync(dataDir, { recursive: true, force: true });
    const urlFile = join(work, 'url');
    const config = join(work, 'config.json');
    writeFileSync(
      config,
      JSON.stringify({ credentials: [{ id: 'bench', apiKey: 'k', url: 'http://127.0.0.1:9/hook' }] }),
    );
    const start = async (): Promise<Started> => {
      if (existsSync(urlFile)) unlinkSync(urlFile);
      const proc = spawnProc('emulator', process.execPath, [
        join(ROOT, 'bin', 'reportbo-emulator.js'),
        'serve',
        ...['--port', '0', '--allow-http', '--clock', 'manual', '--log-level', 'warn'],
        ...['--config', config, '--data-dir', dataDir, '--url-file', urlFile],
      ]);
      const url = await waitFor(
        'emulator: its URL file',
        () => (existsSync(urlFile) ? readFileSync(urlFile, 'utf8').trim() || undefined : undefined),
        { timeoutMs: 600_000, intervalMs: POLL_MS, proc },
      );
      return { proc, url, startMs: performance.now() - proc.spawnedAt };
    };
    const kill = async (proc: Proc) => {
      proc.child.kill('SIGKILL');
      await proc.exited;
    };
    const total = async (url: string) =>
      (await json<{ total: number }>(`${url}/__admin/notifications?limit=1`, { timeoutMs: 120_000 })).total;
    const rows: string[][] = [];
    try {
      // Grow the journal: wrk posts events until a background compaction begins, then kill -9.
      const first = await start();
      const lua = join(work, 'event.lua');
      writeFileSync(
        lua,
        'wrk.method = "POST"\nwrk.body = \'{"type":"Issue"}\'\nwrk.headers["Content-Type"] = "application/json"\n',
      );
      const wrk = spawnProc('wrk', 'wrk', [
        '-t',
        '1',
        '-c',
        '16',
        '-d',
        `${GROW_DEADLINE_MS / 1000}s`,
        '-s',
        lua,
        `${first.url}/__admin/events`,
      ]);
      const grown = performance.now();
      await waitFor(
        'a background compaction of the grown journal',
        () => (compacting(dataDir) ? true : undefined),
        {
          timeoutMs: GROW_DEADLINE_MS,
          intervalMs: POLL_MS,
          proc: first.proc,
        },
      );
      const journalAtKill = journalBytes(dataDir);
      await kill(first.proc);
      await wrk.stop();
      log(
        `journal grown to ${fmt(journalAtKill / MIB, 1)} MiB in ${fmt((performance.now() - grown) / 1000)} s; killed during its compaction`,
      );
      const starts: number[] = [];
      const sizes: number[] = [];
      const totals = new Set<number>();
      /** A row of the table: the step, its start, and the data dir and notifications as they are now. */
      const row = (step: string, startMs: number | undefined) =>
        rows.push([
          step,
          startMs === undefined ? '' : fmt(startMs),
          fmt(bytesIn(dataDir) / MIB, 1),
          files(dataDir),
          totals.size ? fmt([...totals].at(-1)!) : '',
        ]);
      row('grown by wrk, killed in its compaction', undefined);
      for (let round = 1; round <= rounds; round++) {
        const s = await start();
        starts.push(s.startMs);
        totals.add(await total(s.url));
        // The start queues a compaction of what it found sealed (decision 0164): killed there, each
        // round further into it (by the bytes of the snapshot being written, as a share of the journal).
        const cutAt = (round / (rounds + 1)) * 0.9 * journalAtKill;
        let caught = true;
        await waitFor(
          'the compaction this start begins, written far enough',
          () => {
            const tmp = readdirSync(dataDir).find((f) => /^snapshot\.bin\.\d+\.tmp$/.test(f));
            if (tmp === undefined) return undefined;
            try {
              return statSync(join(dataDir, tmp)).size >= cutAt ? true : undefined;
            } catch {
              return undefined; // renamed meanwhile: the compaction ended
            }
          },
          { timeoutMs: 120_000, intervalMs: 1, proc: s.proc },
        ).catch(() => {
          caught = false;
        });
        await kill(s.proc);
        const size = bytesIn(dataDir);
        sizes.push(size);
        log(
          `round ${round}: ready in ${fmt(s.startMs)} ms; killed ${caught ? `during compaction, its snapshot at ${fmt(cutAt / MIB, 1)} MiB` : 'with no compaction seen'}; data dir ${fmt(size / MIB, 1)} MiB: ${files(dataDir)}`,
        );
        row(
          `start ${round}, killed ${caught ? `in its compaction at ${fmt(cutAt / MIB, 1)} MiB of snapshot` : '(no compaction seen)'}`,
          s.startMs,
        );
      }
      // Left to finish: the compaction catches up; then a start on the snapshot it wrote.
      const last = await start();
      starts.push(last.startMs);
      totals.add(await total(last.url));
      await waitFor(
        'the compaction that catches up',
        () => {
          const left = readdirSync(dataDir);
          return !compacting(dataDir) &&
            left.includes('snapshot.bin') &&
            left.filter((f) => f.startsWith('journal-')).length === 1
            ? true
            : undefined;
        },
        { timeoutMs: 300_000, intervalMs: 50, proc: last.proc },
      );
      await last.proc.stop();
      row('a start left to compact, then stopped', last.startMs);
      const after = await start();
      totals.add(await total(after.url));
      await after.proc.stop();
      row('a start on that snapshot', after.startMs);
      const written = journalAtKill;
      const verdicts: Verdict[] = [
        {
          target: `the data dir stays bounded over ${rounds} kills during compaction (≤ 2× what was written, plus a half-written snapshot)`,
          figure: `largest ${fmt(Math.max(...sizes) / MIB, 1)} MiB after a kill, ${fmt(written / MIB, 1)} MiB of journal written`,
          met: Math.max(...sizes) <= 2 * written + COMPACT_MIN_BYTES,
        },
        {
          target: 'the start time does not grow with the kills',
          figure: `${starts.map((ms) => fmt(ms)).join(', ')} ms; then ${fmt(after.startMs)} ms from the snapshot`,
          met: starts.at(-1)! <= 2 * starts[0]!,
        },
        {
          target: 'every start reads the same notifications (nothing acknowledged lost)',
          figure: `${[...totals].map((t) => fmt(t)).join(', ')}`,
          met: totals.size === 1,
        },
      ];
      return [
        'The real CLI with `--data-dir`, manual clock; wrk (1 thread, 16 connections) posts Issue events to a',
        'credential whose receiver port is closed until the journal passes 64 MiB and a background',
        'compaction begins (killed then); each later start is killed during the compaction it begins, once',
        "its `snapshot.bin.N.tmp` holds a share of the journal's bytes that grows with the round. Start time is",
        'spawn → URL file written (the data dir read). MiB = 2²⁰ bytes.',
        '',
        table(['Step', 'Start (ms)', 'Data dir (MiB)', 'Files after', 'Notifications'], rows),
        '',
        verdictTable(verdicts),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};
export default suite;
