/**
 * `reportbo-emulator verify-client` judges real SDKs: the harnesses of docs/verify-client/ (Node's
 * fetch, Python's standard library, a zeep SOAP client generated from the served WSDL) pass; the same
 * harnesses with one planted bug each (test/fixtures/verify-client/) fail exactly the case of that
 * bug, with a reason that names it; a harness that cannot keep its contract is bad usage (exit 2).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_CASE_IDS, type ClientReport, verifyClient } from '../src/index.js';
import { ENV } from '../src/verify-client/stage.js';
import { ROOT, runCli, runMain, runProcess } from './helpers/cli.js';

const NODE = `"${process.execPath}"`;
const DOCS = join(ROOT, 'docs/verify-client');
const FIXTURES = join(ROOT, 'test/fixtures/verify-client');
const DOC = readFileSync(join(ROOT, 'docs/verify-client.md'), 'utf8');
/**
 * A test that runs the kit (or two) through the CLI: about 10 s alone, several times that with the
 * suite's other files on two cores; never a figure the test checks.
 */
const KIT_RUN_MS = 180_000;

/** A python3 that has zeep (Debian's python3-zeep lives beside the system python). */
const PYTHON = ['python3', '/usr/bin/python3'].find((python) => {
  try {
    execFileSync(python, ['-c', 'import zeep'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
});

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-client-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const failedIds = (r: ClientReport) => r.cases.filter((c) => c.status === 'failed').map((c) => c.id);
const statuses = (r: ClientReport) => Object.fromEntries(r.cases.map((c) => [c.id, c.status]));

/** Every case passed, but those the version does not have (1.6: no ExpiresAt, no version enforcement). */
function expectAllPassed(report: ClientReport): void {
  const skippedFor16 = ['refreshes-before-expiry', 'reports-version-refused'];
  for (const c of report.cases) {
    const expected = report.version === '1.6' && skippedFor16.includes(c.id) ? 'skipped' : 'passed';
    expect(c.status, `${c.id}: ${c.reason}`).toBe(expected);
  }
  expect(report.cases).toHaveLength(8);
}

describe.concurrent('correct SDKs pass', () => {
  it(
    "the Node fetch harness (1.7 JSON) through docs/verify-client.md's GitHub Actions step, run as written: exit 0, the --json and --junit reports say 8 passed",
    async () => {
      const block = /## In CI[\s\S]*?```yaml\n([\s\S]*?)```/.exec(DOC)![1]!;
      const step = /- run: \|\n([\s\S]*?)\n {6}- /.exec(block)![1]!.replace(/^ {10}/gm, '');
      expect(step).toContain(
        'npx reportbo-emulator verify-client --exec "node test/verify-client-harness.mjs"',
      );
      expect(step).toContain('--version 1.7 --variant json');
      const folder = await mkdtemp(join(dir, 'ci-'));
      const script = step
        .replaceAll(
          'npx reportbo-emulator',
          `"${process.execPath}" "${join(ROOT, 'bin/reportbo-emulator.js')}"`,
        )
        .replaceAll(
          'node test/verify-client-harness.mjs',
          `\\"${process.execPath}\\" ${join(DOCS, 'node-fetch.mjs')}`,
        );
      const run = await runProcess('bash', ['-c', script], {}, folder);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(run.stdout).toMatch(/OK: 8 cases: 8 passed, 0 failed, 0 warned, 0 skipped/);
      const report = JSON.parse(
        await readFile(join(folder, 'reports/verify-client.json'), 'utf8'),
      ) as ClientReport;
      expect(report).toMatchObject({ version: '1.7', variant: 'json', failed: 0 });
      expectAllPassed(report);
      const xml = await readFile(join(folder, 'reports/verify-client.xml'), 'utf8');
      expect(xml).toContain('<testsuites');
      expect(xml.match(/<testcase /g)).toHaveLength(8);
      expect(xml).not.toContain('<failure');
    },
    KIT_RUN_MS,
  );

  it.each([
    ['node-fetch', '1.6', 'xml'],
    ['python-stdlib', '1.6', 'json'],
    ['python-stdlib', '1.7', 'xml'],
    ['soap-zeep', '1.7', 'soap11'],
    ['soap-zeep', '1.6', 'soap12'],
  ] as const)(
    'the %s harness, API %s %s',
    async (harness, version, variant) => {
      if (harness !== 'node-fetch' && !PYTHON) throw new Error('python3 with zeep (python3-zeep) is needed');
      const exec =
        harness === 'node-fetch'
          ? `${NODE} ${join(DOCS, 'node-fetch.mjs')}`
          : `${PYTHON} ${join(DOCS, `${harness}.py`)}`;
      expectAllPassed(await verifyClient({ exec, version, variant }));
    },
    KIT_RUN_MS,
  );
});

describe.concurrent('an SDK with one planted bug fails exactly its case, and the reason names the bug', () => {
  it.each([
    ['node', 'no-cache', '1.7', 'json', 'reuses-valid-token', /^no cache: called GetAccessToken 20 times/],
    ['python', 'no-cache', '1.7', 'json', 'reuses-valid-token', /^no cache: called GetAccessToken 20 times/],
    [
      'node',
      'refreshes-after-expiry',
      '1.7',
      'json',
      'refreshes-before-expiry',
      /^refreshes after expiry: handed out \d+ expired tokens?/,
    ],
    [
      'node',
      'retries-1200',
      '1.7',
      'json',
      'reports-wrong-password',
      /^retries 1200: called GetAccessToken [2-9]\d* times/,
    ],
    [
      'python',
      'error-as-token',
      '1.6',
      'json',
      'reports-wrong-password',
      /^treats the 1\.6 error string as a token: printed "1200 - /,
    ],
    [
      'node',
      'error-as-token',
      '1.6',
      'xml',
      'reports-wrong-password',
      /^treats the 1\.6 error string as a token/,
    ],
    [
      'node',
      'no-timeout',
      '1.7',
      'json',
      'times-out-on-hanging-provider',
      /^no timeout: still waiting after 6\.0 s/,
    ],
    [
      'node',
      'retries-malformed',
      '1.7',
      'json',
      'reports-malformed-answer',
      /^calls in a loop: 5 calls for answers cut short \(at most 3\)/,
    ],
    // retry-storm: in the --replay test below, whose first run is this bug's whole kit through the CLI.
    [
      'python',
      'wrong-soapaction',
      '1.7',
      'soap11',
      'well-formed-request',
      /^wrong SOAPAction: sent "http:\/\/tempuri\.org\/GetToken"; GetAccessToken.s is "http:\/\/tempuri\.org\/GetAccessToken"/,
    ],
  ] as const)(
    '%s %s (API %s %s) fails %s',
    async (language, bug, version, variant, caseId, reason) => {
      if (language === 'python' && !PYTHON) throw new Error('python3 with zeep (python3-zeep) is needed');
      const exec =
        language === 'node'
          ? `SAMPLE_BUG=${bug} ${NODE} ${join(FIXTURES, 'node-buggy.mjs')}`
          : `SAMPLE_BUG=${bug} ${PYTHON} ${join(FIXTURES, 'python_buggy.py')}`;
      // A short bound for the SDK without a timeout: it fails the same way at any bound.
      const report = await verifyClient({
        exec,
        version,
        variant,
        ...(bug === 'no-timeout' ? { hangBoundMs: 6000 } : {}),
      });
      expect(failedIds(report), JSON.stringify(statuses(report))).toEqual([caseId]);
      const failed = report.cases.find((c) => c.id === caseId)!;
      expect(failed.reason).toMatch(reason);
      expect(failed.fix).not.toBe('');
      if (caseId === 'well-formed-request') {
        // The emulator refused the request: nothing else can be judged.
        expect(report.cases.filter((c) => c.id !== caseId).every((c) => c.status === 'skipped')).toBe(true);
      }
    },
    KIT_RUN_MS,
  );
});

it.concurrent('a Content-Type without its charset is a warning of well-formed-request, and nothing fails', async () => {
  const exec = `SAMPLE_BUG=no-charset ${NODE} ${join(FIXTURES, 'node-buggy.mjs')}`;
  const report = await verifyClient({ exec, only: 'well-formed-request,reuses-valid-token' });
  expect(statuses(report)).toEqual({ 'well-formed-request': 'warned', 'reuses-valid-token': 'passed' });
  expect(report.cases[0]!.reason).toMatch(
    /Content-Type "application\/json" names no charset; add "; charset=utf-8"/,
  );
});

it.concurrent('an SDK that reports the first 503 without a retry gets a warning, not a failure', async () => {
  const exec = `SAMPLE_BUG=gives-up-at-once ${NODE} ${join(FIXTURES, 'node-buggy.mjs')}`;
  const report = await verifyClient({ exec, only: 'recovers-from-transient-failures' });
  expect(report.cases[0]!.status).toBe('warned');
  expect(report.cases[0]!.reason).toMatch(
    /^gives up at once: reported the first 503 as an error without a retry "GetAccessToken: HTTP 503"/,
  );
});

it.concurrent(
  'node retry-storm (API 1.7 json) fails recovers-from-transient-failures through the CLI, and --replay runs again the cases of its --json report that failed, with its command, version and variant',
  async () => {
    const json = join(dir, 'storm.json');
    const exec = `SAMPLE_BUG=retry-storm ${NODE} ${join(FIXTURES, 'node-buggy.mjs')}`;
    const junit = join(dir, 'storm.xml');
    const first = await runCli(['verify-client', '--exec', exec, '--json', json, '--junit', junit]);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(first.stdout).toMatch(/✗ recovers-from-transient-failures — retry storm on 503/);
    expect(first.stdout).toMatch(/rule: {5}docs\/verify-client\.md/);
    // The planted bug fails exactly its case, as each of the table's above.
    const stormed = JSON.parse(await readFile(json, 'utf8')) as ClientReport;
    expect(failedIds(stormed), JSON.stringify(statuses(stormed))).toEqual([
      'recovers-from-transient-failures',
    ]);
    const failed = stormed.cases.find((c) => c.id === 'recovers-from-transient-failures')!;
    expect(failed.reason).toMatch(/^retry storm on 503: (retried after \d+ ms without a pause|\d+ calls in)/);
    expect(failed.fix).not.toBe('');
    const xml = await readFile(junit, 'utf8');
    expect(xml).toMatch(
      /<failure message="retry storm on 503: [^"]*" type="recovers-from-transient-failures">/,
    );
    expect(xml).toContain('<testsuites name="reportbo-emulator verify-client" tests="8" failures="1"');
    const again = await runCli(['verify-client', '--replay', json, '--json', join(dir, 'again.json')]);
    expect(again.code, again.stdout + again.stderr).toBe(1);
    const report = JSON.parse(await readFile(join(dir, 'again.json'), 'utf8')) as ClientReport;
    expect(report.cases.map((c) => c.id)).toEqual(['recovers-from-transient-failures']);
    expect(report.exec).toBe(exec);
  },
  KIT_RUN_MS,
);

// The refusals run `main()` in this process (runMain: no process start each, ~0.5 CPU-s), one at a
// time, as its capture of stdout and stderr needs; the first through the real CLI.
describe('a harness that cannot keep its contract is bad usage: exit 2 and what to fix', () => {
  it.each([
    ['a command that is not found', 'no-such-harness-command --tokens', /command not found \(sh exit 127/],
    ['a harness that prints nothing', 'true', /exited 0 but printed nothing in well-formed-request/],
    ['a harness that never exits', 'sleep 60', /did not exit within 2\.0 s in well-formed-request/],
  ])('%s', async (_what, exec, message) => {
    const run = await runMain(['verify-client', '--exec', exec, '--harness-timeout-ms', '2000']);
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it.each([
    [[], /--exec is required/],
    [
      ['--exec', 'true', '--variant', 'soap13'],
      /--variant: Invalid option: expected one of "json"\|"xml"\|"soap11"\|"soap12"/,
    ],
    [
      ['--exec', 'true', '--only', 'reuses-token'],
      /--only: unknown case id "reuses-token"; accepted: well-formed-request/,
    ],
    [['--exec', 'true', '--hang-bound-ms', 'soon'], /--hang-bound-ms: "soon" is not a whole number/],
    // Checked before the run: an unwritable report path fails at once.
    [
      ['--exec', 'true', '--json', '/dev/null/reports/r.json'],
      /--json \/dev\/null\/reports\/r\.json: cannot create its folder \(ENOTDIR\)/,
    ],
  ])('flags %j are refused', async (flags, message) => {
    const args = ['verify-client', ...flags];
    const run = flags.length === 0 ? await runCli(args) : await runMain(args);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

// Its GitHub Actions step runs as written: the Node harness's test at the top ("correct SDKs pass").
describe('docs/verify-client.md says what the kit does', () => {
  it('names exactly the environment variables the harness gets', () => {
    const named = new Set(DOC.match(/VERIFY_CLIENT_[A-Z_]+/g));
    expect([...named].sort()).toEqual(Object.values(ENV).sort());
  });

  it('lists every case id in its table, in run order', () => {
    const rows = [...DOC.matchAll(/^\| `([a-z-]+)`(?: \(1\.7\))? \|/gm)].map((m) => m[1]);
    expect(rows.filter((id) => (CLIENT_CASE_IDS as readonly string[]).includes(id!))).toEqual([
      ...CLIENT_CASE_IDS,
    ]);
  });
});
