/**
 * The report a team acts on (issue 30 §5), through the real CLI: each case of the JSON report carries
 * the notifications it sent (BookingID, UpdateDate, status, the gzip bytes), the receiver's answers and
 * the probe's readings, JUnit lists them, and `verify --replay <report.json> --only <case>` sends that
 * exact sequence again: against a fresh copy of the buggy receiver it fails the same way, against the
 * fixed receiver it passes; the bytes that arrive are the report's. Bad report files exit 2 with a
 * message, never a stack trace.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../src/index.js';
import { runCli, runMain } from './helpers/cli.js';
import { bugReceiver } from './helpers/verify-bug-receivers.js';
import { listenLoopback } from './helpers/verify-receivers.js';

const KEY = 'replay-key-7';
const CASE = 'handles-void-before-issue';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-replay-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as VerifyReport;
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at .+:\d+:\d+/);

describe('verify --replay', () => {
  // The first two run side by side (their own receivers and files); the refusals below run
  // main() in this process, which captures stdout, so they run alone.
  it.concurrent('a failing case replays and fails the same way on the buggy receiver, and passes on the fixed one', async () => {
    const buggy = await bugReceiver(KEY, { bug: 'placeholder-overwritten-by-issue' });
    const json = join(dir, 'first.json');
    const junit = join(dir, 'first.xml');
    const run = await runCli([
      'verify',
      '--receiver',
      buggy.url,
      '--api-key',
      KEY,
      '--allow-http',
      '--probe',
      buggy.probe,
      // A wrong state stays wrong: a short deadline keeps the failing probe reads short (the report
      // carries it, so the replays below use it too).
      '--probe-deadline-ms',
      '1500',
      '--only',
      CASE,
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(1);
    const report = await readJson(json);
    const original = report.cases.find((c) => c.id === CASE)!;
    expect(original.status).toBe('failed');
    const trace = original.trace!;
    // What was sent: every notification with its BookingID, UpdateDate, status and the bytes, which
    // unpack to a body naming the same booking, status and UpdateDate.
    expect(trace.notifications.length).toBeGreaterThanOrEqual(3);
    for (const n of trace.notifications) {
      const body = JSON.parse(gunzipSync(Buffer.from(n.gzipBase64, 'base64')).toString('utf8'));
      expect(body.Reservation).toMatchObject({
        BookingID: n.bookingId,
        BookingStatus: n.bookingStatus,
        UpdateDate: n.updateDate,
      });
      expect(n.attempts.length).toBeGreaterThan(0);
      for (const a of n.attempts) expect(a.status).toBe(200);
    }
    // The answers and the probe readings, with what each expected: one said Issued where Voided was due.
    expect(trace.probe.some((p) => p.expect === 'Voided' && p.bookingStatus === 'Issued')).toBe(true);
    expect(JSON.stringify(report)).not.toContain(KEY);
    const xml = await readFile(junit, 'utf8');
    const voided = trace.notifications.find((n) => n.bookingStatus === 'Voided')!;
    expect(xml).toContain(`Voided BookingID ${voided.bookingId} UpdateDate ${voided.updateDate}`);
    expect(xml).toContain(`probe BookingID ${voided.bookingId} expecting Voided`);

    // A fresh copy of the same bug (no state from the first run): the replay fails the same way.
    const again = await bugReceiver(KEY, { bug: 'placeholder-overwritten-by-issue' });
    const replayJson = join(dir, 'replay.json');
    const failing = await runCli([
      'verify',
      '--replay',
      json,
      '--only',
      CASE,
      '--url',
      again.url,
      '--probe',
      again.probe,
      '--api-key',
      KEY,
      '--allow-http',
      '--json',
      replayJson,
    ]);
    expect(failing.code, failing.stdout + failing.stderr).toBe(1);
    const replayReport = await readJson(replayJson);
    expect(replayReport.probeDeadlineMs).toBe(1_500);
    const replayed = replayReport.cases[0]!;
    expect(replayed.status).toBe('failed');
    expect(replayed.reason).toMatch(/expected Voided, it says Issued/);
    expect(again.posts()).toBe(trace.notifications.reduce((s, n) => s + n.attempts.length, 0));
    // The replay's own report can be replayed too: same notifications, same bytes.
    expect(replayed.trace!.notifications.map((n) => n.gzipBase64)).toEqual(
      trace.notifications.map((n) => n.gzipBase64),
    );

    // The fixed receiver passes the same sequence.
    const fixed = await bugReceiver(KEY);
    const passing = await runCli([
      'verify',
      '--replay',
      json,
      '--only',
      CASE,
      '--url',
      fixed.url,
      '--probe',
      fixed.probe,
      '--api-key',
      KEY,
      '--allow-http',
    ]);
    expect(passing.code, passing.stdout + passing.stderr).toBe(0);
    expect(passing.stdout).toMatch(/✓ handles-void-before-issue — replayed \d+ notifications/);
  });

  it.concurrent('sends the same bytes with the same headers, in the same order, to the URL of the report', async () => {
    const got: Array<{ body: Buffer; auth: string | undefined; disposition: string | undefined }> = [];
    const handle = (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.method === 'POST')
          got.push({
            body: Buffer.concat(chunks),
            auth: req.headers.authorization,
            disposition: req.headers['content-disposition'],
          });
        // Refuses every notification with a wrong or missing key, acknowledges the rest.
        const ok = req.headers.authorization === `Bearer ${KEY}`;
        res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' }).end(ok ? 'OK' : 'no');
      });
    };
    const server = await listenLoopback(handle);
    try {
      const json = join(dir, 'auth.json');
      const url = `${server.base}/hook`;
      const first = await runCli([
        'verify',
        '--receiver',
        url,
        '--api-key',
        KEY,
        '--allow-http',
        '--only',
        'rejects-missing-authorization',
        '--json',
        json,
      ]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const trace = (await readJson(json)).cases[0]!.trace!;
      const sent = trace.notifications.flatMap((n) => n.attempts.map((a) => ({ at: a.atMs, n })));
      sent.sort((a, b) => a.at - b.at);
      got.length = 0;
      // No --url: the report's receiver.
      const replay = await runCli([
        'verify',
        '--replay',
        json,
        '--only',
        'rejects-missing-authorization',
        '--api-key',
        KEY,
        '--allow-http',
      ]);
      expect(replay.code, replay.stdout + replay.stderr).toBe(0);
      expect(got.map((g) => g.body.toString('base64'))).toEqual(sent.map((s) => s.n.gzipBase64));
      expect(got.map((g) => g.disposition)).toEqual(sent.map((s) => `attachment; filename=${s.n.filename}`));
      expect(got.map((g) => g.auth === undefined)).toEqual(
        sent.map((s) => s.n.credential === 'no-authorization'),
      );
    } finally {
      await server.close();
    }
  });

  it('refuses a missing, non-JSON or foreign file, an unknown case and a missing --only with exit 2 and a message', async () => {
    const notJson = join(dir, 'not.json');
    await writeFile(notJson, 'hello {');
    const foreign = join(dir, 'foreign.json');
    await writeFile(foreign, JSON.stringify({ name: 'a package.json', version: '1.0.0' }));
    const noTrace = join(dir, 'old.json');
    await writeFile(
      noTrace,
      JSON.stringify({
        receiver: 'http://127.0.0.1:9/x',
        responseTimeoutMs: 30000,
        cases: [{ id: CASE, status: 'failed', reason: 'old' }],
      }),
    );
    // A trace before its case's id (verify --json writes the id first; so does a key-sorting tool).
    const traceFirst = join(dir, 'trace-first.json');
    await writeFile(
      traceFirst,
      `{"receiver":"http://127.0.0.1:9/x","responseTimeoutMs":30000,"cases":[{"trace":{"notifications":[],"probe":[]},"id":"${CASE}","status":"failed","reason":"r"}]}`,
    );
    const tried: Array<[string[], RegExp]> = [
      [['--replay', join(dir, 'absent.json'), '--only', CASE], /absent\.json: cannot read it \(ENOENT\)/],
      [['--replay', notJson, '--only', CASE], /not\.json: is not JSON/],
      [
        ['--replay', foreign, '--only', CASE],
        /foreign\.json: is not a verify report written by verify --json: receiver/,
      ],
      [['--replay', noTrace, '--only', CASE], /carries no trace/],
      [['--replay', traceFirst, '--only', CASE], /has its trace before its id/],
      [['--replay', noTrace, '--only', 'tls'], /holds no case "tls"/],
      [['--replay', noTrace, '--only', 'handles-void-befor'], /unknown case id "handles-void-befor"/],
      [['--replay', noTrace], /--replay needs --only with exactly one case id/],
      [['--url', 'http://127.0.0.1:9/x'], /--url goes with --replay/],
    ];
    // The first two through the real CLI; the rest through the same main() in this process (no
    // process start each).
    for (const [i, [args, message]] of tried.entries()) {
      const argv = ['verify', ...args, '--api-key', KEY, '--allow-http'];
      const run = i < 2 ? await runCli(argv) : await runMain(argv);
      expect(run.code, `${args.join(' ')}\n${run.stderr}`).toBe(2);
      expect(run.stderr).toMatch(message);
      noStack(run.stderr);
    }
  });

  it('--help documents --replay and --url', async () => {
    const help = await runMain(['verify', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--replay <report\.json>/);
    expect(help.stdout).toMatch(/--url <url>/);
    expect(help.stdout).toMatch(/verify --replay verify\.json --only/);
  });
});
