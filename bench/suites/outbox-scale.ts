/**
 * Scale of the outbox: the emulator's CLI holding 100,000 pending notifications (Issue events while
 * the loopback receiver answers 503), its RSS, then one redelivery batch over all of them once the
 * receiver answers 200 (manual clock advanced to the next minute 55).
 */
import { postIssueEvents, waitSettled } from '../lib/events.js';
import { json } from '../lib/http.js';
import { ensureBenchPeers } from '../lib/install.js';
import { stopAll, workDir } from '../lib/proc.js';
import { newestProfile, summarizeProfile } from '../lib/profile.js';
import { type Receiver, startReceiver } from '../lib/receiver.js';
import { rssMiB, sampleRss } from '../lib/rss.js';
import { type Server, startEmulator } from '../lib/servers.js';
import { envNumber, fmt, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const EVENT_CONCURRENCY = 16;
const MIB_TO_MB = 1.048_576;
const RSS_TARGET_MB = 300;
const BATCH_TARGET_S = 3;
/** Issue 29 §3: bytes of RSS each pending notification may add (3,366 measured on 2026-11-24). */
const BYTES_PER_PENDING_TARGET = 2_000;

interface Figures {
  events: number;
  postSeconds: number;
  baseMiB: number;
  pendingMiB: number;
  peakPostMiB: number;
  batchSeconds: number;
  peakBatchMiB: number;
  afterBatchMiB: number;
  arrived: number;
  refused: string[];
}

function emulatorFor(receiver: Receiver, cpuProfDir?: string): Promise<Server> {
  return startEmulator({
    args: ['--allow-http', '--clock', 'manual'],
    config: { credentials: [{ id: 'bench', apiKey: 'bench-key', url: `${receiver.url}/hook` }] },
    ...(cpuProfDir ? { cpuProfDir } : {}),
  });
}

async function measure(
  emu: Server,
  receiver: Receiver,
  events: number,
  log: (line: string) => void,
): Promise<Figures> {
  await receiver.reset();
  await receiver.answer(503);
  const baseMiB = rssMiB(emu.proc.pid) ?? 0;
  const postSampler = sampleRss(emu.proc.pid);
  const posted = await postIssueEvents(emu.url, events, EVENT_CONCURRENCY, (done) =>
    log(`${fmt(done)} events posted, RSS ${fmt(rssMiB(emu.proc.pid) ?? 0)} MiB`),
  );
  if (!(await waitSettled(emu.url))) throw new Error('first attempts did not settle within 300 s');
  const peakPostMiB = postSampler.stop();
  // Let the heap settle a moment (no forced GC: what a user's process would hold).
  await new Promise((r) => setTimeout(r, 2_000));
  const pendingMiB = rssMiB(emu.proc.pid) ?? 0;
  const pending = await json<{ notifications: unknown[] }>(
    `${emu.url}/__admin/notifications?state=delivered`,
  );
  if (pending.notifications.length)
    throw new Error('a notification was delivered while the receiver answered 503');
  log(`${fmt(posted.ids.length)} pending, RSS ${fmt(pendingMiB)} MiB; running one batch`);

  await receiver.reset();
  await receiver.answer(200);
  const batchSampler = sampleRss(emu.proc.pid);
  const t0 = performance.now();
  await json(`${emu.url}/__admin/clock/advance`, { body: { to: 'next-batch' }, timeoutMs: 600_000 });
  const batchSeconds = (performance.now() - t0) / 1000;
  const peakBatchMiB = batchSampler.stop();
  const done = await receiver.wait(posted.ids.length, 30_000);
  return {
    events: posted.ids.length,
    postSeconds: posted.elapsedMs / 1000,
    baseMiB,
    pendingMiB,
    peakPostMiB,
    batchSeconds,
    peakBatchMiB,
    afterBatchMiB: rssMiB(emu.proc.pid) ?? 0,
    arrived: done.count,
    refused: posted.refused,
  };
}

const suite: BenchSuite = {
  name: 'outbox-scale',
  title: 'Outbox at scale: RSS with 100,000 pending notifications and one batch over them',
  async run(log) {
    ensureBenchPeers(log);
    const events = envNumber('BENCH_OUTBOX_EVENTS', 100_000, 10_000);
    try {
      const receiver = await startReceiver();
      const emu = await emulatorFor(receiver);
      const f = await measure(emu, receiver, events, log);
      await emu.stop();
      const mb = (mib: number) => mib * MIB_TO_MB;
      const perNotificationBytes = ((f.pendingMiB - f.baseMiB) * 1024 * 1024) / f.events;
      const verdicts: Verdict[] = [
        {
          target: `${fmt(100_000)} pending ≤ ${RSS_TARGET_MB} MB RSS`,
          figure: `${fmt(mb(f.pendingMiB))} MB settled, ${fmt(mb(f.peakPostMiB))} MB peak while posting (${fmt(f.events)} pending)`,
          met: f.events >= 100_000 ? mb(Math.max(f.pendingMiB, f.peakPostMiB)) <= RSS_TARGET_MB : undefined,
          ...(f.events < 100_000 ? { note: `quick run with ${fmt(f.events)} only` } : {}),
        },
        {
          // Issue 29 §3: the RSS each pending notification adds, the receiver answering 503.
          target: `≤ ${fmt(BYTES_PER_PENDING_TARGET)} bytes per pending notification at 100,000`,
          figure: `${fmt(perNotificationBytes)} bytes (RSS growth ÷ ${fmt(f.events)} pending)`,
          met: f.events >= 100_000 ? perNotificationBytes <= BYTES_PER_PENDING_TARGET : undefined,
          ...(f.events < 100_000 ? { note: `quick run with ${fmt(f.events)} only` } : {}),
        },
        {
          target: `One batch over them ≤ ${BATCH_TARGET_S} s`,
          figure: `${fmt(f.batchSeconds, 1)} s (${fmt(f.events / f.batchSeconds)} notifications/s)`,
          met: f.events >= 100_000 ? f.batchSeconds <= BATCH_TARGET_S : undefined,
          ...(f.events < 100_000 ? { note: `quick run with ${fmt(f.events)} only` } : {}),
        },
      ];
      if (f.arrived < f.events) {
        verdicts[2]!.met = false;
        verdicts[2]!.note = `only ${fmt(f.arrived)} of ${fmt(f.events)} arrived`;
      }

      const profiles: string[] = [];
      if (verdicts.some((v) => v.met === false)) {
        profiles.push(
          [
            '#### Why the targets are missed (issue 14 analysis)',
            '',
            'In process (`createEmulator`, 100,000 Issue events dispatched to a sender answering 503,',
            '`process.memoryUsage()` after a full GC): **121 MB of gzip bodies** (~1.2 KB each, kept so every',
            'attempt sends identical bytes and the admin API can show them), **87 MB of live JavaScript heap**',
            '(436 bytes per reservation record, 474 per notification record with its first attempt), and',
            'a heap V8 sized at ~175–190 MB during the burst and keeps. From the CLI, the 100,000 admin',
            'requests make that held heap larger still (RSS 434 MB on the shared machine). The floor with',
            'the bodies kept is ~50 (process) + 121 + 87 ≈ 260 MB before any heap slack, so 300 MB needs',
            'V8 to hold less than ~40 MB of slack, which its growing policy does not do after a burst;',
            '`node --optimize-for-size` (measured 333 MB in process on 2026-11-21, heap held 130 MB) gets',
            'there at a cost in speed everywhere. Skipping the strict re-parse of generated bodies (issue',
            '14) removed one full copy of every body from the burst’s garbage.',
            '',
            'Measured from the CLI on 2026-11-22 (shared machine, load 3–7): 74 MiB before the events,',
            'and after the last mark-compact of the burst 107.5 MiB live in a V8 heap of 197.8 MiB',
            'committed (`--trace-gc`): 74 + 115 (bodies) + 107.5 ≈ 297 MiB (311 MB) with no slack at',
            'all, so the target is out of reach while bodies, reservations and notifications stay as they are.',
            'V8 flags buy part of the slack at a CPU cost everywhere: `--max-semi-space-size=4',
            '--heap-growing-percent=25` measured 360 MiB pending (against 396–432 MiB), not 286.',
            '',
            'The batch: the emulator is not the only process on the 2 cores; the CPU time of each',
            'process is the stable figure. A batch used to queue every due attempt in the limiter at',
            'once (a closure and a few promises per notification, held for the whole batch); it now',
            'walks the due list with `deliveryConcurrency` runners: from the CLI over 100,000, 4.0 s',
            'against 3.3 s of emulator CPU and a 493 against 430 MiB peak RSS; in process over 50,000',
            '(two A/B pairs back to back) 2.15–2.19 s against 1.75–1.77 s. The receiver process takes',
            '~1.9 s of CPU per 100,000, so on 2 cores the batch needs both nearly to itself. In the',
            'profile of the batch, `writev` (the kernel side of each POST on loopback) is about a third',
            'of the emulator’s CPU, garbage collection over the large heap about a sixth, undici and',
            'the outbox’s per-attempt bookkeeping about a sixth each.',
          ].join('\n'),
        );
      }
      if (verdicts.some((v) => v.met === false) || process.env.BENCH_PROFILE) {
        const dir = workDir('profiles', `outbox-${Date.now()}`);
        const profiled = await emulatorFor(receiver, dir);
        try {
          const p = await measure(profiled, receiver, events, log);
          log(`profiled: batch ${fmt(p.batchSeconds, 1)} s under --cpu-prof`);
        } finally {
          await profiled.stop();
        }
        const file = newestProfile(dir);
        profiles.push(
          `#### CPU profile: ${fmt(events)} events posted while failing, then one batch\n\n` +
            (file ? summarizeProfile(file) : 'No profile was written (the process did not exit cleanly).'),
        );
      }

      return [
        `One emulator (\`--allow-http --clock manual\`, default Node heap settings), one credential pointing`,
        `at a loopback receiver in its own process. ${fmt(f.events)} Issue events posted ${EVENT_CONCURRENCY} at a`,
        'time while the receiver answers 503, so every notification is pending after its first attempt;',
        'RSS read from /proc 2 s after the attempts settled (no forced GC). Then the receiver answers 200',
        'and the manual clock advances to the next minute 55; the batch time is that admin call, which',
        'answers once the batch finished. One run (it is long); MB = 10⁶ bytes.',
        '',
        table(
          ['Figure', 'Value'],
          [
            [
              'Events posted (setup)',
              `${fmt(f.events)} in ${fmt(f.postSeconds, 1)} s (${fmt(f.events / f.postSeconds)}/s)`,
            ],
            ['RSS before the events', `${fmt(mb(f.baseMiB))} MB`],
            ['RSS with all pending (settled)', `${fmt(mb(f.pendingMiB))} MB`],
            ['Peak RSS while posting', `${fmt(mb(f.peakPostMiB))} MB`],
            ['Growth per pending notification', `${fmt(perNotificationBytes)} bytes`],
            ['One batch over all of them', `${fmt(f.batchSeconds, 1)} s, ${fmt(f.arrived)} delivered`],
            ['Peak RSS during the batch', `${fmt(mb(f.peakBatchMiB))} MB`],
            ['RSS after the batch', `${fmt(mb(f.afterBatchMiB))} MB`],
          ],
        ),
        '',
        verdictTable(verdicts),
        ...(f.refused.length
          ? [
              '',
              `**${f.refused.length} event(s) refused by the emulator with \`body_invalid\`** (its generator made a`,
              'body its own strict schema rejects; retried with the next seed). First:',
              '',
              `> ${f.refused[0]}`,
            ]
          : []),
        ...profiles.map((p) => `\n${p}`),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

export default suite;
