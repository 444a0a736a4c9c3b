import { readdirSync, readFileSync } from 'node:fs';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { CLOCK_START } from './helpers/clock.js';
import { serveCli } from './helpers/processes.js';
import { ROOT, runCli, scenarioDir } from './helpers/scenario-cli.js';

const tmp = scenarioDir();
const shipped = readdirSync(`${ROOT}/scenarios`)
  .filter((f) => f.endsWith('.yaml'))
  .map((f) => `scenarios/${f}`);

const WRONG = `name: wrong expectation
receivers: [{ name: ok }]
credentials: [{ id: main, apiKey: k-1, url: "receiver:ok" }]
steps:
  - issue: { as: first }
  - name: the receiver acknowledged
    expect:
      notifications: { booking: first, state: exhausted, attempts: 1 }
`;

// Each test runs its own CLI processes on its own files and ports: they run side by side.
describe.concurrent('reportbo-emulator run', () => {
  it('passes every shipped scenario through the real CLI with exit code 0', async () => {
    expect(shipped.length).toBeGreaterThanOrEqual(8);
    const run = await runCli(['run', ...shipped]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      `${shipped.length} scenarios: ${shipped.length} passed, 0 failed, 0 with errors`,
    );
    for (const file of shipped) expect(run.stdout).toContain(`(${file})`);
  });

  it('runs a scenario with an HTTPS built-in receiver against a running emulator that was given no CA', async () => {
    const { url } = await serveCli(['--clock', 'manual', '--clock-start', CLOCK_START]);
    const run = await runCli(['run', 'scenarios/05-receiver-recovers.yaml', '--target', url]);
    expect(run.stdout).toContain('1 scenario: 1 passed');
    expect(run.code).toBe(0);
    // The runner made the target trust its receivers' CA for the run (it delivered over HTTPS), then
    // removed it: the target trusts what it trusted before.
    expect(run.stdout).toMatch(/✓ \d+ expect notifications/);
    const trusted = (await (await fetch(`${url}/__admin/trust`)).json()) as {
      certificates: { source: string }[];
    };
    expect(trusted.certificates).toEqual([]);
  });

  it('exits 1 on a wrong expectation, naming the step, the expected and the actual value', async () => {
    const file = tmp.write('wrong.yaml', WRONG);
    const run = await runCli(['run', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('✗ 2 the receiver acknowledged');
    expect(run.stdout).toMatch(/n-000001 \(main, Issued\)\.state: expected "exhausted", actual "delivered"/);
    expect(run.stdout).toContain(
      `${file} › step 2 (the receiver acknowledged) › notifications (booking first)`,
    );
    expect(run.stdout).toContain('1 scenario: 0 passed, 1 failed');
  });

  it('exits 1 when a step cannot run, with the emulator answer and later steps skipped', async () => {
    const file = tmp.write(
      'refused.yaml',
      'name: void twice\nsteps:\n  - issue: { as: t }\n  - void: { booking: t }\n  - void: { booking: t }\n  - expect: { reservation: { booking: t, status: Voided } }\n',
    );
    const run = await runCli(['run', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/! 3 void t\n\s+error: .*Voided/);
    expect(run.stdout).toContain('- 4 expect reservation (skipped)');
  });

  it('writes JUnit XML with testsuites, testsuite, testcase and failure that parses as XML', async () => {
    const wrong = tmp.write('wrong-junit.yaml', WRONG);
    const junit = `${tmp.dir}/report.xml`;
    const run = await runCli(['run', 'scenarios/02-void.yaml', wrong, '--junit', junit]);
    expect(run.code).toBe(1);
    const xml = readFileSync(junit, 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
    const suites = doc.testsuites.testsuite as Array<Record<string, unknown>>;
    expect(doc.testsuites).toMatchObject({ tests: '5', failures: '1', errors: '0' });
    expect(suites.map((s) => s.name)).toEqual(['void', 'wrong expectation']);
    expect(suites[0]).toMatchObject({ file: 'scenarios/02-void.yaml', tests: '4', failures: '0' });
    const failing = suites[1]!.testcase as Record<string, unknown>;
    expect(failing.name).toBe('step 2: the receiver acknowledged › notifications (booking first)');
    expect(failing.failure).toMatchObject({ type: 'expectation' });
    expect((failing.failure as { message: string }).message).toContain(
      'expected "exhausted", actual "delivered"',
    );
  });

  it('writes a JSON report with every step and expectation, and JUnit beside it, into folders that do not exist yet', async () => {
    const json = `${tmp.dir}/out/nested/report.json`;
    const junit = `${tmp.dir}/reports/junit/report.xml`;
    const run = await runCli([
      'run',
      'scenarios/05-receiver-recovers.yaml',
      '--json',
      json,
      '--junit',
      junit,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(XMLValidator.validate(readFileSync(junit, 'utf8'))).toBe(true);
    const text = readFileSync(json, 'utf8');
    // Expectations that held carry no attempts (a failed one does: run-reports.test.ts).
    expect(text).not.toContain('"attempts": [');
    const report = JSON.parse(text);
    expect(report.summary).toMatchObject({ scenarios: 1, passed: 1, expectations: 5, expectationsFailed: 0 });
    expect(report.scenarios[0].steps.map((s: { kind: string }) => s.kind)).toEqual([
      'issue',
      'expect',
      'advance',
      'expect',
      'advance',
      'expect',
      'advance',
      'expect',
    ]);
  });

  it('prints help for the run command naming --target, --junit and --json', async () => {
    const run = await runCli(['run', '--help']);
    expect(run.code).toBe(0);
    for (const flag of ['--target <url>', '--junit <file>', '--json <file>'])
      expect(run.stdout).toContain(flag);
  });

  it('exits 2 without running anything when no file is given', async () => {
    const run = await runCli(['run']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("missing required argument 'files'");
  });
});
