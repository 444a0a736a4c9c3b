/**
 * `run` reports as a CI job reads them: report folders that do not exist yet, and failed
 * notification expectations that say why a delivery failed (the attempts: outcome, status code,
 * the emulator's message) in the console, the JUnit `<failure>` text and the JSON report.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { runCli, scenarioDir } from './helpers/scenario-cli.js';
import { tlsReceiver } from './helpers/tls.js';

const tmp = scenarioDir();

const UNAUTHORIZED = `name: the receiver refuses the key
receivers: [{ name: strict, behaviour: 401 }]
credentials: [{ id: main, apiKey: wrong-key, url: "receiver:strict" }]
steps:
  - issue: { as: first }
  - name: the receiver acknowledged
    expect:
      notifications: { booking: first, state: delivered }
`;

const HANGING = `name: the receiver never answers
settings: { responseTimeoutMs: 300 }
receivers: [{ name: stuck, behaviour: hang }]
credentials: [{ id: main, apiKey: k, url: "receiver:stuck" }]
steps:
  - issue: { as: first }
  - advance: { to: next-batch }
  - expect:
      notifications: { credential: main, state: delivered, count: 1 }
`;

interface JsonAttempt {
  number: number;
  at: string;
  outcome: string;
  statusCode: number | null;
  message: string;
}
interface JsonReport {
  scenarios: Array<{
    steps: Array<{
      expectations: Array<{
        passed: boolean;
        notifications?: Array<{ id: string; credential: string; state: string; attempts: JsonAttempt[] }>;
      }>;
    }>;
  }>;
}

function failedExpectations(report: JsonReport) {
  return report.scenarios.flatMap((s) => s.steps.flatMap((st) => st.expectations.filter((e) => !e.passed)));
}

function junitFailures(xml: string): string[] {
  expect(XMLValidator.validate(xml)).toBe(true);
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
  const suites = [doc.testsuites.testsuite].flat() as Array<{ testcase: unknown }>;
  return suites
    .flatMap((s) => [s.testcase].flat() as Array<{ failure?: { '#text': string } }>)
    .filter((c) => c.failure)
    .map((c) => c.failure!['#text']);
}

// Report folders that do not exist yet are created: cli-run.test.ts ("writes a JSON report …").
describe('run --junit / --json into a path that cannot be written', () => {
  it('says which report could not be written, and fails the run, when the path is not writable', async () => {
    const blocker = tmp.write('not-a-folder', 'a file where a folder should be');
    const run = await runCli(['run', 'scenarios/02-void.yaml', '--junit', join(blocker, 'x.xml')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`--junit ${join(blocker, 'x.xml')}: cannot write the report`);
    expect(run.stderr).not.toContain('unexpected error');
    expect(run.stdout).toContain('1 scenario: 1 passed');
  });
});

// The first two run side by side (built-in receivers inside each run); the TLS one runs alone, as
// test/helpers/receiver.ts closes every receiver it started after each test.
describe('a failed notification expectation carries the attempts of the notifications it looked at', () => {
  it.concurrent('shows the receiver’s 401 in the console, the JUnit failure text and the JSON report', async () => {
    const file = tmp.write('unauthorized.yaml', UNAUTHORIZED);
    const junit = join(tmp.dir, 'r401', 'report.xml');
    const json = join(tmp.dir, 'r401', 'report.json');
    const run = await runCli(['run', file, '--junit', junit, '--json', json]);
    expect(run.code).toBe(1);
    const attemptLine = /attempt 1 at 2026-04-27T10:00:\d\d\.\d{3}Z: http_status 401 — .*401/;
    // Progress, then the summary at the end: both say why.
    expect(run.stdout.match(new RegExp(attemptLine.source, 'g'))).toHaveLength(2);
    expect(run.stdout).toMatch(/n-000001 \(main, Issued\): pending, 1 attempt/);

    const [failure] = junitFailures(readFileSync(junit, 'utf8'));
    expect(failure).toContain('state: expected "delivered", actual "pending"');
    expect(failure).toMatch(attemptLine);

    const [expectation] = failedExpectations(JSON.parse(readFileSync(json, 'utf8')) as JsonReport);
    expect(expectation!.notifications).toEqual([
      {
        id: 'n-000001',
        credential: 'main',
        bookingStatus: 'Issued',
        state: 'pending',
        attempts: [
          {
            number: 1,
            at: expect.stringMatching(/^2026-04-27T10:00:/),
            outcome: 'http_status',
            statusCode: 401,
            message: expect.stringContaining('401'),
          },
        ],
      },
    ]);
  });

  it.concurrent('shows a timeout of every attempt, with the response timeout the scenario set', async () => {
    const file = tmp.write('hanging.yaml', HANGING);
    const json = join(tmp.dir, 'hang', 'report.json');
    const junit = join(tmp.dir, 'hang', 'report.xml');
    const run = await runCli(['run', file, '--json', json, '--junit', junit]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/attempt 1 at .*: timeout — no complete response within 300 ms/);
    expect(run.stdout).toMatch(
      /attempt 2 at 2026-04-27T10:55:.*: timeout — no complete response within 300 ms/,
    );
    const [failure] = junitFailures(readFileSync(junit, 'utf8'));
    expect(failure).toMatch(/attempt 2 at 2026-04-27T10:55:.*: timeout — no complete response within 300 ms/);
    const [expectation] = failedExpectations(JSON.parse(readFileSync(json, 'utf8')) as JsonReport);
    expect(expectation!.notifications![0]!.attempts.map((a) => [a.number, a.outcome, a.statusCode])).toEqual([
      [1, 'timeout', null],
      [2, 'timeout', null],
    ]);
  });

  it('shows the TLS cause when the receiver’s certificate is not trusted', async () => {
    const untrusted = await tlsReceiver('trusted'); // signed by the test CA, which the run is not given
    const file = tmp.write(
      'untrusted.yaml',
      `name: untrusted certificate
credentials: [{ id: main, apiKey: k, url: "${untrusted.url}/hook" }]
steps:
  - issue: { as: first }
  - expect:
      notifications: { booking: first, state: delivered }
`,
    );
    const junit = join(tmp.dir, 'tls', 'report.xml');
    const json = join(tmp.dir, 'tls', 'report.json');
    const run = await runCli(['run', file, '--junit', junit, '--json', json]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/attempt 1 at .*: tls_error — TLS: .*/);
    const [failure] = junitFailures(readFileSync(junit, 'utf8'));
    expect(failure).toMatch(/attempt 1 at .*: tls_error — TLS: /);
    const [expectation] = failedExpectations(JSON.parse(readFileSync(json, 'utf8')) as JsonReport);
    expect(expectation!.notifications![0]!.attempts[0]).toMatchObject({
      outcome: 'tls_error',
      statusCode: null,
      message: expect.stringMatching(/^TLS: /),
    });
    expect(untrusted.requests).toHaveLength(0);
  });
  // Expectations that held carry no attempts: cli-run.test.ts ("writes a JSON report …").
});

describe('run --target', () => {
  it('says to add http:// when the URL has no scheme, before running anything', async () => {
    const run = await runCli(['run', '--target', 'localhost:8080', 'scenarios/02-void.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--target localhost:8080: the URL has no scheme; add http://');
    expect(run.stderr).toContain('--target http://localhost:8080');
    expect(run.stderr).not.toMatch(/unknown scheme|Is it running/);
    expect(run.stdout).toBe('');
  });

  it('refuses a scheme that is not http or https', async () => {
    const run = await runCli(['run', '--target', 'ftp://localhost:8080', 'scenarios/02-void.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('expected an http:// or https:// URL');
  });
});
