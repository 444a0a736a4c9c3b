/**
 * Issue 29 §3: the bytes each pending notification costs. The emulator's CLI in its own process
 * (`node --expose-gc`, bench/lib/heap-hook.mjs preloaded), a loopback receiver answering 503 in
 * another, Issue events posted until N notifications are pending, then two forced full GCs and the
 * process's memory read before and after. A second, smaller run takes a heap snapshot before and
 * after and sums the growth by class: where the bytes go.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { postIssueEvents, waitSettled } from '../lib/events.js';
import { classSizes, growth } from '../lib/heap-snapshot.js';
import { json } from '../lib/http.js';
import { ROOT, stopAll, waitFor, workDir } from '../lib/proc.js';
import { type Receiver, startReceiver } from '../lib/receiver.js';
import { type Server, startEmulator } from '../lib/servers.js';
import { envNumber, fmt, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const EVENT_CONCURRENCY = 16;
const WARM_UP_EVENTS = 200;
/** Issue 29 §3: ≤ 2,000 bytes per pending notification at 100,000 pending. */
const BYTES_PER_PENDING_TARGET = 2_000;
const TARGET_EVENTS = 100_000;

interface Usage {
  rss: number;
  heapTotal: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

interface Emulator {
  server: Server;
  /** Forces two full GCs in the emulator and answers its memory then. */
  reading(): Promise<Usage>;
  /** The heap snapshot the n-th reading wrote (with `snapshot`). */
  snapshotFile(n: number): string;
}

async function emulatorFor(receiver: Receiver, snapshot: boolean): Promise<Emulator> {
  const out = join(workDir('heap'), `pending-${process.pid}-${Date.now()}`);
  const server = await startEmulator({
    args: ['--allow-http', '--clock', 'manual'],
    config: { credentials: [{ id: 'bench', apiKey: 'bench-key', url: `${receiver.url}/hook` }] },
    nodeArgs: ['--expose-gc', '--import', join(ROOT, 'bench', 'lib', 'heap-hook.mjs')],
    env: { BENCH_HEAP_OUT: out, BENCH_HEAP_SNAPSHOT: snapshot ? '1' : '0' },
  });
  let n = 0;
  return {
    server,
    async reading() {
      const file = `${out}.${++n}.json`;
      process.kill(server.proc.pid, 'SIGUSR2');
      await waitFor(`emulator: heap reading ${n}`, () => existsSync(file) || undefined, {
        timeoutMs: 300_000,
        intervalMs: 100,
        proc: server.proc,
      });
      const usage = JSON.parse(readFileSync(file, 'utf8')) as Usage;
      rmSync(file);
      return usage;
    },
    snapshotFile: (i) => `${out}.${i}.heapsnapshot`,
  };
}

/** Posts `count` Issue events while the receiver answers 503 and waits until all are pending. */
async function pendingEvents(emu: Server, count: number, log: (line: string) => void): Promise<number> {
  const posted = await postIssueEvents(emu.url, count, EVENT_CONCURRENCY, (done) =>
    log(`${fmt(done)} events posted`),
  );
  if (!(await waitSettled(emu.url))) throw new Error('first attempts did not settle within 300 s');
  const delivered = await json<{ notifications: unknown[] }>(
    `${emu.url}/__admin/notifications?state=delivered`,
  );
  if (delivered.notifications.length)
    throw new Error('a notification was delivered while the receiver answered 503');
  return posted.ids.length;
}

interface Run {
  events: number;
  before: Usage;
  after: Usage;
}

async function run(
  receiver: Receiver,
  events: number,
  snapshot: boolean,
  log: (line: string) => void,
): Promise<Run & { classes?: ReturnType<typeof growth> }> {
  const emu = await emulatorFor(receiver, snapshot);
  try {
    await pendingEvents(emu.server, WARM_UP_EVENTS, log);
    const before = await emu.reading();
    const pending = await pendingEvents(emu.server, events, log);
    const after = await emu.reading();
    log(`${fmt(pending)} pending: RSS ${fmt(before.rss / 2 ** 20)} → ${fmt(after.rss / 2 ** 20)} MiB`);
    if (!snapshot) return { events: pending, before, after };
    const classes = growth(classSizes(emu.snapshotFile(1)), classSizes(emu.snapshotFile(2)));
    rmSync(emu.snapshotFile(1));
    rmSync(emu.snapshotFile(2));
    return { events: pending, before, after, classes };
  } finally {
    await emu.server.stop();
  }
}

const perNotification = (r: Run, pick: (u: Usage) => number) => (pick(r.after) - pick(r.before)) / r.events;

const suite: BenchSuite = {
  name: 'pending-memory',
  title: 'Memory per pending notification (issue 29 §3)',
  async run(log) {
    const events = envNumber('BENCH_PENDING_EVENTS', TARGET_EVENTS, 10_000);
    const snapshotEvents = envNumber('BENCH_PENDING_SNAPSHOT_EVENTS', 10_000, 2_000);
    try {
      const receiver = await startReceiver();
      await receiver.answer(503);
      const full = await run(receiver, events, false, log);
      const snap = await run(receiver, snapshotEvents, true, log);
      const rssEach = perNotification(full, (u) => u.rss);
      const liveEach = perNotification(full, (u) => u.heapUsed + u.arrayBuffers);
      const verdicts: Verdict[] = [
        {
          target: `≤ ${fmt(BYTES_PER_PENDING_TARGET)} bytes of RSS per pending notification at ${fmt(TARGET_EVENTS)}`,
          figure: `${fmt(rssEach)} bytes (RSS growth after forced GC ÷ ${fmt(full.events)} pending)`,
          met: full.events >= TARGET_EVENTS ? rssEach <= BYTES_PER_PENDING_TARGET : undefined,
          ...(full.events < TARGET_EVENTS ? { note: `quick run with ${fmt(full.events)} only` } : {}),
        },
      ];
      const classes = snap.classes ?? [];
      const shown = classes.slice(0, 14);
      const rest = classes.slice(14).reduce((sum, c) => sum + c.bytes, 0);
      return [
        "The emulator's CLI (`--allow-http --clock manual`, `node --expose-gc` with bench/lib/heap-hook.mjs",
        'preloaded) and a loopback receiver answering 503, each in its own process. After',
        `${WARM_UP_EVENTS} warm-up events, a reading; then Issue events posted ${EVENT_CONCURRENCY} at a time until every`,
        'notification is pending (its first attempt answered 503), and a second reading. Each reading',
        'is taken after two forced full GCs in the emulator (SIGUSR2 to the hook). Per notification =',
        'growth ÷ notifications pending. One run (it is long).',
        '',
        table(
          ['Figure', 'Before', `With ${fmt(full.events)} pending`, 'Per pending notification'],
          [
            [
              'RSS',
              `${fmt(full.before.rss / 2 ** 20)} MiB`,
              `${fmt(full.after.rss / 2 ** 20)} MiB`,
              `${fmt(rssEach)} bytes`,
            ],
            [
              'V8 heap committed',
              `${fmt(full.before.heapTotal / 2 ** 20, 1)} MiB`,
              `${fmt(full.after.heapTotal / 2 ** 20, 1)} MiB`,
              `${fmt(perNotification(full, (u) => u.heapTotal))} bytes`,
            ],
            [
              'V8 heap used',
              `${fmt(full.before.heapUsed / 2 ** 20, 1)} MiB`,
              `${fmt(full.after.heapUsed / 2 ** 20, 1)} MiB`,
              `${fmt(perNotification(full, (u) => u.heapUsed))} bytes`,
            ],
            [
              'ArrayBuffers (gzip bodies)',
              `${fmt(full.before.arrayBuffers / 2 ** 20, 1)} MiB`,
              `${fmt(full.after.arrayBuffers / 2 ** 20, 1)} MiB`,
              `${fmt(perNotification(full, (u) => u.arrayBuffers))} bytes`,
            ],
            ['Live (heap used + ArrayBuffers)', '', '', `${fmt(liveEach)} bytes`],
          ],
        ),
        '',
        verdictTable(verdicts),
        '',
        `#### Where the bytes go: heap snapshot growth by class over ${fmt(snap.events)} pending`,
        '',
        'Self sizes of every node in a heap snapshot after the readings above, summed by class (an',
        "object's constructor, an array's role, a native's name), after minus before, ÷ notifications.",
        '',
        table(
          ['Class', 'Nodes per notification', 'Bytes per notification'],
          [
            ...shown.map((c) => [
              c.name.replaceAll('|', '\\|'),
              fmt(c.count / snap.events, 2),
              fmt(c.bytes / snap.events),
            ]),
            ['everything else', '', fmt(rest / snap.events)],
            ['total', '', fmt(classes.reduce((sum, c) => sum + c.bytes, 0) / snap.events)],
          ],
        ),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

export default suite;
