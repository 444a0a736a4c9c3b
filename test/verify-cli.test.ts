/**
 * `reportbo-emulator verify` through the real CLI: the reference receiver (docker/sample-receiver,
 * a real HTTPS process with a certificate from the `certs` command) passes every case, with --probe
 * too; a broken receiver fails with what was sent, what came back, the rule and the fix; bad usage
 * exits 2 with a message that says what to fix.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VerifyReport } from '../src/index.js';
import { STATUS_MARK } from '../src/report/case-report.js';
import { runCli, runMain } from './helpers/cli.js';
import { sampleReceiver } from './helpers/processes.js';
import { verifyTestReceiver } from './helpers/verify-receivers.js';

const KEY = 'sample-api-key';
let dir: string;
let base: string;
let ca: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-cli-'));
  const certs = await runCli(['certs', '--out', join(dir, 'certs'), '--host', 'localhost']);
  expect(certs.code, certs.stderr).toBe(0);
  ca = join(dir, 'certs/ca.pem');
  const { port } = await sampleReceiver(join(dir, 'certs'), KEY, join(dir, 'received'));
  base = `https://localhost:${port}`;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const readJson = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as VerifyReport;

/**
 * Whether answers-within-timeout warned, checked against its own figures: it warns exactly when the
 * p95 of the run's answers passed 5 s, which a loaded machine can make happen to a correct receiver.
 */
function timingWarned(report: VerifyReport): boolean {
  const timing = report.cases.find((c) => c.id === 'answers-within-timeout')!;
  expect(timing.status === 'warned').toBe(timing.timing!.p95Ms > 5_000);
  return timing.status === 'warned';
}

/**
 * The cases a starved machine can fail for a correct receiver, checked against the run's own figures:
 * a burst of 50 TLS connections waits past the 30 s response timeout only when requests sent one at
 * a time already took over 500 ms at p95 (the sample receiver answers in under 50 ms on a quiet
 * machine), and then every such failure is a timeout. Seen at load 10 on two cores.
 */
function starvedCases(report: VerifyReport): string[] {
  const timing = report.cases.find((c) => c.id === 'answers-within-timeout')!.timing!;
  const failed = report.cases.filter((c) => c.status === 'failed');
  const timeouts = (c: (typeof failed)[number]) =>
    c.evidence.length > 0 && c.evidence.every((e) => e.received.startsWith('timeout '));
  if (timing.p95Ms <= 500) return [];
  return failed
    .filter((c) => (c.id === 'survives-batch-burst' && timeouts(c)) || c.id === 'answers-within-timeout')
    .map((c) => c.id);
}

describe('verify against the sample receiver', () => {
  it('passes every case with --probe {BookingID}, exit 0, and writes JSON and JUnit reports into new folders (a starved machine: the burst, by its own figures)', async () => {
    const json = join(dir, 'reports/nested/verify.json');
    const junit = join(dir, 'reports/junit/deeper/verify.xml');
    const run = await runCli([
      'verify',
      '--receiver',
      `${base}/reportbo`,
      '--api-key',
      KEY,
      '--ca-file',
      ca,
      '--probe',
      `${base}/bookings/{BookingID}`,
      '--json',
      json,
      '--junit',
      junit,
      // A budget waits every response timeout out (decision 0239): a starved burst is judged by the
      // 30 s timeout, as starvedCases expects, not cut at 10 s as not judged.
      '--budget',
      '10m',
    ]);
    const report = await readJson(json);
    // A loaded machine may push the p95 past the warning line; the case must then say so (a warning
    // keeps exit 0). A starved one may fail the burst (starvedCases). Every other case passes.
    const slow = timingWarned(report);
    const starved = starvedCases(report);
    expect(run.code, run.stdout + run.stderr).toBe(starved.length > 0 ? 1 : 0);
    const expected = (id: string) =>
      starved.includes(id) ? 'failed' : id === 'answers-within-timeout' && slow ? 'warned' : 'passed';
    expect(report.cases.map((c) => [c.id, c.status])).toEqual(
      report.cases.map((c) => [c.id, expected(c.id)]),
    );
    const warned = slow ? 1 : 0;
    const passed = 17 - warned - starved.length;
    expect(report).toMatchObject({
      receiver: `${base}/reportbo`,
      passed,
      failed: starved.length,
      warned,
      skipped: 0,
    });
    for (const c of report.cases) {
      expect(run.stdout).toContain(`  ${STATUS_MARK[c.status]} ${c.id} — ${c.reason}\n`);
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'title', 'status', 'reason', 'evidence']));
    }
    expect(run.stdout).toMatch(
      new RegExp(
        `\\n${starved.length > 0 ? 'FAILED' : 'OK'}: 17 cases: ${passed} passed, ${starved.length} failed, ${warned} warned, 0 skipped \\(\\d+\\.\\d s\\)\\n$`,
      ),
    );
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(
      new RegExp(
        `<testsuites name="reportbo-emulator verify" tests="17" failures="${starved.length}" errors="0" skipped="0"`,
      ),
    );
    expect(xml.match(/<testcase /g)).toHaveLength(17);
  });

  it('passes the probe cases with a {BookingNumber} template, noting the Exchange it cannot check that way', async () => {
    const json = join(dir, 'by-number.json');
    const run = await runCli([
      'verify',
      '--receiver',
      `${base}/reportbo`,
      '--api-key',
      KEY,
      '--ca-file',
      ca,
      '--probe',
      `${base}/booking-numbers/{BookingNumber}`,
      '--only',
      'records-final-status,same-second-filename-collision',
      '--json',
      json,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const report = await readJson(json);
    expect(report.cases.map((c) => c.status)).toEqual(['passed', 'passed']);
    expect(report.cases[0]!.reason).toMatch(
      /the Exchange flow is not checked: old and new reservation share a BookingNumber/,
    );
  });

  it('skips the probe cases without --probe (– lines) and still exits 0', async () => {
    // The four probe cases and one that needs no probe (the whole kit ran in the first test).
    const json = join(dir, 'no-probe.json');
    const run = await runCli([
      'verify',
      '--receiver',
      `${base}/reportbo`,
      '--api-key',
      KEY,
      '--ca-file',
      ca,
      '--only',
      'acknowledges-issue,records-final-status,same-second-filename-collision,records-concurrent-issue-and-void,records-newest-update-date',
      '--json',
      json,
    ]);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/ {2}– records-final-status — needs --probe <url-template>/);
    expect(run.stdout).toMatch(/ {2}– same-second-filename-collision — needs --probe/);
    expect(run.stdout).toMatch(/ {2}– records-concurrent-issue-and-void — needs --probe/);
    expect(run.stdout).toMatch(/ {2}– records-newest-update-date — needs --probe/);
    const report = await readJson(json);
    expect(report.cases.map((c) => [c.id, c.status])).toEqual([
      ['acknowledges-issue', 'passed'],
      ['records-final-status', 'skipped'],
      ['same-second-filename-collision', 'skipped'],
      ['records-concurrent-issue-and-void', 'skipped'],
      ['records-newest-update-date', 'skipped'],
    ]);
    expect(run.stdout).toMatch('OK: 5 cases: 1 passed, 0 failed, 0 warned, 4 skipped');
  });
});

describe('verify against a receiver that answers 202', () => {
  it('exits 1; the failure shows what was sent, what came back, the rule and the fix; JUnit carries it', async () => {
    const r = await verifyTestReceiver(KEY, 'answers-202');
    const junit = join(dir, 'r202/verify.xml');
    const run = await runCli([
      'verify',
      '--receiver',
      r.url,
      '--api-key',
      KEY,
      '--allow-http',
      '--only',
      'tls,acknowledges-issue,rejects-wrong-api-key',
      '--junit',
      junit,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/ {2}! tls — plain http:\/\/ accepted because of --allow-http/);
    expect(run.stdout).toMatch(
      / {2}✗ acknowledges-issue — the Issue: HTTP 202\. Only exactly 200 acknowledges: a 202 counts as a failed delivery/,
    );
    expect(run.stdout).toMatch(
      / {6}sent: {5}POST http:\/\/127\.0\.0\.1:\d+\/reportbo: Issued BookingID \d+ \(filename \d{8}_\d{6}Z-\w+\.json, \d+ bytes gzip\), Authorization: Bearer <your ApiKey>\n/,
    );
    expect(run.stdout).toMatch(/ {6}received: HTTP 202 after \d+ ms, body "accepted"\n/);
    expect(run.stdout).toMatch(
      / {6}rule: {5}spec "Endpoints 1" rule 2: the receiver answers with HTTP status exactly 200/,
    );
    expect(run.stdout).toMatch(/ {6}fix: {6}Answer exactly 200/);
    expect(run.stdout).toMatch(
      / {2}✓ rejects-wrong-api-key — refused every one \(with another Bearer key: HTTP 401; .*with "Basic <base64 of reportbo:your key>" instead of Bearer: HTTP 401\)\n/,
    );
    expect(run.stdout).toMatch(/FAILED: 3 cases: 1 passed, 1 failed, 1 warned, 0 skipped/);
    expect(run.stdout).not.toContain(KEY);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(
      /<failure message="the Issue: HTTP 202\. Only exactly 200 acknowledges[^"]*" type="acknowledges-issue">/,
    );
    expect(xml).toMatch(/received: HTTP 202 after \d+ ms, body &quot;accepted&quot;/);
  });
});

describe('verify against an unreachable receiver', () => {
  it('fails tls with the cause (exit 1, no crash) and skips the rest', async () => {
    const port = await closedPort();
    const json = join(dir, 'unreachable.json');
    // main() in this process (runMain): the real CLI's exit codes and output are the other tests'.
    const run = await runMain([
      'verify',
      '--receiver',
      `http://127.0.0.1:${port}/reportbo`,
      '--api-key',
      KEY,
      '--allow-http',
      '--json',
      json,
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toBe('');
    const report = await readJson(json);
    expect(report.cases[0]).toMatchObject({
      id: 'tls',
      status: 'failed',
      reason: expect.stringMatching(
        /cannot reach the receiver: connection refused by 127\.0\.0\.1:\d+ \(ECONNREFUSED\)/,
      ),
    });
    expect(report).toMatchObject({ failed: 1, skipped: 16 });
  });
});

describe('verify usage', () => {
  it('lists every case id in --help', async () => {
    const run = await runMain(['verify', '--help']);
    expect(run.code).toBe(0);
    for (const id of ['tls', 'acknowledges-issue', 'survives-batch-burst', 'same-second-filename-collision'])
      expect(run.stdout).toMatch(new RegExp(`\\n  ${id} +\\S`));
    expect(run.stdout).toContain('--probe <url-template>');
    for (const flag of [
      '--fail-fast',
      '--probe-deadline-ms <ms>',
      '--burst-concurrency <n>',
      '--other-api-key <key>',
    ])
      expect(run.stdout).toContain(flag);
  });

  it('--fail-fast stops at the first failed case and exits 1', async () => {
    const r = await verifyTestReceiver(KEY, 'answers-202');
    const run = await runMain([
      'verify',
      '--receiver',
      r.url,
      '--api-key',
      KEY,
      '--allow-http',
      '--fail-fast',
    ]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/ {2}✗ acknowledges-issue — the Issue: HTTP 202/);
    expect(run.stdout).toMatch(
      / {2}– answers-within-timeout — not run: --fail-fast stopped the run at acknowledges-issue\n/,
    );
    expect(run.stdout).toMatch(/FAILED: 17 cases: 0 passed, 1 failed, 1 warned, 15 skipped/);
  });

  it.each([
    [['--api-key', 'k'], /--receiver is required: the URL your receiver takes notifications at/],
    [['--receiver', 'https://r.example/x'], /--api-key is required/],
    [['--receiver', 'not a url', '--api-key', 'k'], /--receiver "not a url" is not an absolute URL/],
    [
      ['--receiver', 'http://r.example/x', '--api-key', 'k'],
      /plain http.*add --allow-http to check a local receiver/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'k', '--ca-file', '/no/such/ca.pem'],
      /--ca-file \/no\/such\/ca\.pem: cannot read it \(ENOENT\)/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'k', '--only', 'tls,acks-issue'],
      /--only: unknown case id "acks-issue"; accepted: tls, acknowledges-issue,/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'k', '--seed', 'abc'],
      /--seed: "abc" is not a whole number/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'key\r\nX-Injected: 1'],
      /--api-key: holds a control character \(CR, LF, tab, …\), which cannot travel in an Authorization header/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'k', '--burst-concurrency', 'many'],
      /--burst-concurrency: "many" is not a whole number/,
    ],
    [
      ['--receiver', 'https://r.example/x', '--api-key', 'k', '--probe', 'https://r.example/b'],
      /--probe "https:\/\/r\.example\/b" holds no placeholder; put \{BookingID\} or \{BookingNumber\}/,
    ],
  ])('exits 2 for %j with a message that says what to fix', async (args, message) => {
    // The first through the real CLI; the rest through the same main() in this process (no process
    // start each, ~0.5 CPU-s).
    const viaProcess = args.length === 2 && args[0] === '--api-key';
    const run = viaProcess ? await runCli(['verify', ...args]) : await runMain(['verify', ...args]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe('');
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
