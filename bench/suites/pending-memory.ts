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
import { cpuTimeMs, type HeapHookReading } from '../lib/rss.js';
import { type Server, startEmulator } from '../lib/servers.js';
import { envNumber, fmt, table, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const EVENT_CONCURRENCY = 16;
const WARM_UP_EVENTS = 200;
/** Issue 29 §3: ≤ 2,000 bytes per pending notification at 100,000 pending. */
const BYTES_PER_PENDING_TARGET = 2_000;
const TARGET_EVENTS = 100_000;
/** How long the emulator idles before the last reading (does V8 or malloc give pages back?). */
const IDLE_MS = 15_000;
const EXTRA_NODE_ARGS = (process.env.BENCH_PENDING_NODE_ARGS ?? '').split(' ').filter(Boolean);

type Usage = HeapHookReading;

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
    nodeArgs: [
      '--expose-gc',
      '--import',
      join(ROOT, 'bench', 'lib', 'heap-hook.mjs'),
      // Extra node flags to try (e.g. `--max-semi-space-size=4`); the section says which were used.
      ...EXTRA_NODE_ARGS,
    ],
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
      if (process.env.BENCH_PENDING_SPACES) console.error(`   reading ${n}: ${JSON.stringify(usage)}`);
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
  /** A reading after IDLE_MS more of idling (the full run only). */
  idle?: Usage;
  /** Emulator CPU (user + system) per event while the events were posted and first attempted, µs. */
  cpuPerEventUs: number;
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
    const cpuBefore = cpuTimeMs(emu.server.proc.pid) ?? Number.NaN;
    const pending = await pendingEvents(emu.server, events, log);
    const cpuPerEventUs = (((cpuTimeMs(emu.server.proc.pid) ?? Number.NaN) - cpuBefore) * 1000) / pending;
    log(`emulator CPU ${fmt(cpuPerEventUs)} µs per event`);
    const after = await emu.reading();
    log(`${fmt(pending)} pending: RSS ${fmt(before.rss / 2 ** 20)} → ${fmt(after.rss / 2 ** 20)} MiB`);
    if (!snapshot) {
      await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
      const idle = await emu.reading();
      log(`after ${IDLE_MS / 1000} s idle: RSS ${fmt(idle.rss / 2 ** 20)} MiB`);
      return { events: pending, before, after, idle, cpuPerEventUs };
    }
    const classes = growth(classSizes(emu.snapshotFile(1)), classSizes(emu.snapshotFile(2)));
    rmSync(emu.snapshotFile(1));
    rmSync(emu.snapshotFile(2));
    return { events: pending, before, after, classes, cpuPerEventUs };
  } finally {
    await emu.server.stop();
  }
}

const ROWS: [string, (u: Usage) => number, number][] = [
  ['RSS', (u) => u.rss, 0],
  ['V8 heap committed', (u) => u.heapTotal, 1],
  ['V8 heap used', (u) => u.heapUsed, 1],
  ["ArrayBuffers (the body file's slab in memory)", (u) => u.arrayBuffers, 1],
  ['Live (heap used + ArrayBuffers)', (u) => u.heapUsed + u.arrayBuffers, 1],
  ['Resident: malloc main arena (`[heap]`)', (u) => u.brkHeap, 1],
  ['Resident: other anonymous (V8 pages, mmaps)', (u) => u.anon, 1],
  ['Resident: file-backed', (u) => u.fileBacked, 1],
];

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
      // BENCH_PENDING_SNAPSHOT_EVENTS=0 skips the snapshot run (iterating on RSS only).
      const snap = snapshotEvents > 0 ? await run(receiver, snapshotEvents, true, log) : undefined;
      const rssEach = perNotification(full, (u) => u.rss);
      const verdicts: Verdict[] = [
        {
          target: `≤ ${fmt(BYTES_PER_PENDING_TARGET)} bytes of RSS per pending notification at ${fmt(TARGET_EVENTS)}`,
          figure: `${fmt(rssEach)} bytes (RSS growth after forced GC ÷ ${fmt(full.events)} pending)`,
          met: full.events >= TARGET_EVENTS ? rssEach <= BYTES_PER_PENDING_TARGET : undefined,
          ...(full.events < TARGET_EVENTS ? { note: `quick run with ${fmt(full.events)} only` } : {}),
        },
      ];
      const classes = snap?.classes ?? [];
      const snapEvents = snap?.events ?? 1;
      return [
        "The emulator's CLI (`--allow-http --clock manual`, `node --expose-gc` with bench/lib/heap-hook.mjs",
        'preloaded) and a loopback receiver answering 503, each in its own process. After',
        `${WARM_UP_EVENTS} warm-up events, a reading; then Issue events posted ${EVENT_CONCURRENCY} at a time until every`,
        'notification is pending (its first attempt answered 503), and a second reading. Each reading',
        'is taken after two forced full GCs in the emulator (SIGUSR2 to the hook). Per notification =',
        'growth ÷ notifications pending. One run (it is long). A third reading after',
        `${IDLE_MS / 1000} s of idling shows what V8's memory reducer gives back. The resident rows split RSS by`,
        "mapping (/proc/self/smaps). The gzip bodies are in the emulator's body file (decision 0153), not",
        'in its memory: the file is not in the RSS.',
        ...(EXTRA_NODE_ARGS.length ? [`Extra node flags: \`${EXTRA_NODE_ARGS.join(' ')}\`.`] : []),
        '',
        table(
          [
            'Figure',
            'Before',
            `With ${fmt(full.events)} pending`,
            'Per pending notification',
            `After ${IDLE_MS / 1000} s idle, per notification`,
          ],
          ROWS.map(([name, pick, digits]) => [
            name,
            `${fmt(pick(full.before) / 2 ** 20, digits)} MiB`,
            `${fmt(pick(full.after) / 2 ** 20, digits)} MiB`,
            `${fmt(perNotification(full, pick))} bytes`,
            full.idle ? `${fmt((pick(full.idle) - pick(full.before)) / full.events)} bytes` : '',
          ]),
        ),
        '',
        `Emulator CPU (user + system, /proc) while the events were posted and first attempted: ${fmt(full.cpuPerEventUs)} µs per event.`,
        '',
        verdictTable(verdicts),
        '',
        ...(snap
          ? snapshotSection(classes, snapEvents)
          : ['No heap snapshot run (`BENCH_PENDING_SNAPSHOT_EVENTS=0`).']),
      ].join('\n');
    } finally {
      await stopAll();
    }
  },
};

/** The heap snapshot's growth by class, per notification. */
function snapshotSection(classes: ReturnType<typeof growth>, snapEvents: number): string[] {
  const shown = classes.slice(0, 14);
  const rest = classes.slice(14).reduce((sum, c) => sum + c.bytes, 0);
  return [
    `#### Where the bytes go: heap snapshot growth by class over ${fmt(snapEvents)} pending`,
    '',
    'Self sizes of every node in a heap snapshot after the readings above, summed by class (an',
    "object's constructor, an array's role, a native's name), after minus before, ÷ notifications.",
    '',
    table(
      ['Class', 'Nodes per notification', 'Bytes per notification'],
      [
        ...shown.map((c) => [
          c.name.replaceAll('|', '\\|'),
          fmt(c.count / snapEvents, 2),
          fmt(c.bytes / snapEvents),
        ]),
        ['everything else', '', fmt(rest / snapEvents)],
        ['total', '', fmt(classes.reduce((sum, c) => sum + c.bytes, 0) / snapEvents)],
      ],
    ),
  ];
}

export default suite;
