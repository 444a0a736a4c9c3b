/**
 * Wall time of `verify` through the CLI against every receiver of the test set that has a bug (the
 * test helpers' receivers, one bug each), then the correct ones, with default options and `--probe`: the figures of
 * docs/benchmarks.md "Failing verify runs" (issue 44: every failing run under 30 s). Not a bar the
 * suite asserts: a measurement, one receiver at a time. Each run's JSON report (its reasons) is kept
 * in the folder the last line names.
 *
 *   npm run build && npx tsx bench/verify-failing-runs.ts [name,…] [-- extra verify flags]
 */
import { mkdir } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, runCli } from '../test/helpers/cli.js';
import { start } from '../test/helpers/processes.js';
import { type Bug, bugReceiver } from '../test/helpers/verify-bug-receivers.js';
import { type Mistake, verifyTestReceiver } from '../test/helpers/verify-receivers.js';

const KEY = 'bench-failing-key';

const BUGS: Bug[] = [
  'stores-before-auth',
  'compares-prefix',
  'compares-any-case',
  'accepts-basic',
  'accepts-any-credential-key',
  'answers-201-without-authorization',
  'placeholder-overwritten-by-issue',
  'drops-unknown-void',
  'read-modify-write',
  'decodes-latin1',
  'rounds-amounts',
  'proxy-limit-9kb',
  'refuses-old-update-date',
  'ignores-equal-update-date',
  'refuses-void-with-taken-filename',
  'expects-other-key',
  'expects-plain-json',
  'redirects-everything',
  'dies',
  'fails-everything',
  'refuses-burst-with-413',
  'answers-huge-body',
  'acks-forged-without-storing',
  'full-queue-drops',
  'inbox-keyed-by-arrival-time',
  'reads-first-chunk-only',
  'compares-en-us-text',
  'tie-goes-to-later-arrival',
  'requires-extra-header',
  'strict-content-type',
  'local-time-zone',
  'sums-empty-tax-details',
  'utf8mb3-name-column',
  'name-pattern-without-marks',
  'last-name-40-characters',
  'header-name-case-sensitive',
  'one-request-per-connection',
  'refuses-content-encoding',
  'rate-limited',
];

const MISTAKES: Mistake[] = [
  'answers-202',
  'accepts-any-key',
  'accepts-missing-authorization',
  'conflict-on-duplicate',
  'refuses-non-ascii',
  'refuses-void-before-issue',
  'hangs-when-unauthenticated',
  'records-by-filename',
  'records-by-filename-exchanged-late',
  'defers-void-before-issue',
];

interface Target {
  name: string;
  start: () => Promise<{ url: string; probe: string; close: () => Promise<void> }>;
}

const targets: Target[] = [
  ...BUGS.map((bug) => ({ name: bug, start: () => bugReceiver(KEY, { bug }) })),
  { name: 'stalls-after-5', start: () => bugReceiver(KEY, { stallAfter: 5 }) },
  ...MISTAKES.map((m) => ({ name: m, start: () => verifyTestReceiver(KEY, m) })),
  // Load: Python's standard library, 150 ms per notification: single-threaded with a listen backlog
  // of 1 (connections past it wait for SYN retries), and threaded behind one global lock.
  {
    name: 'python-single-threaded-backlog-1',
    start: () => python(['--backlog', '1', '--handle-ms', '150']),
  },
  {
    name: 'python-threaded-global-lock',
    start: () => python(['--threaded', '--global-lock', '--handle-ms', '150']),
  },
  // The correct receivers of test/verify-correct-receivers.test.ts, for their run time (they pass).
  { name: 'correct-node', start: () => bugReceiver(KEY, {}) },
  { name: 'correct-queue-300ms', start: () => bugReceiver(KEY, { queueLagMs: 300 }) },
  { name: 'correct-python-threaded', start: () => python(['--threaded']) },
  { name: 'correct-python-single-threaded', start: () => python([]) },
];

async function python(args: string[]) {
  const py = start('python3', [join(ROOT, 'test/helpers/verify_receiver.py'), '--api-key', KEY, ...args]);
  const port = (await py.waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)/))[1];
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/reportbo`,
    probe: `${base}/bookings/{BookingID}`,
    close: async () => {
      py.child.kill();
    },
  };
}

const dash = process.argv.indexOf('--');
const args = dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash);
const extra = dash === -1 ? [] : process.argv.slice(dash + 1);
const only = args[0]?.split(',');
const chosen = only ? targets.filter((t) => only.includes(t.name)) : targets;

const reports = join(tmpdir(), 'verify-failing-runs');
await mkdir(reports, { recursive: true });
console.log(`| Receiver | Exit | Wall (CLI) | Passed / failed / warned / skipped | Load at start |`);
console.log('|---|---|---|---|---|');
for (const t of chosen) {
  const r = await t.start();
  const load = loadavg()[0]!.toFixed(1);
  try {
    const run = await runCli(
      [
        'verify',
        '--receiver',
        r.url,
        '--api-key',
        KEY,
        '--allow-http',
        '--probe',
        r.probe,
        '--json',
        join(reports, `${t.name}.json`),
        ...extra,
      ],
      {},
      undefined,
      300_000,
    );
    const tally = /(\d+) passed, (\d+) failed, (\d+) warned, (\d+) skipped/.exec(run.stdout);
    console.log(
      `| ${t.name} | ${run.code} | ${(run.wallMs / 1000).toFixed(1)} s | ${tally ? tally.slice(1).join(' / ') : '?'} | ${load} |`,
    );
  } finally {
    await r.close();
  }
}
console.log(`\nJSON reports: ${reports}`);
