import { describe, expect, it } from 'vitest';
import { AdminClient } from '../src/client/index.js';
import { serveCli } from './helpers/processes.js';
import { ROOT, runCli, scenarioDir } from './helpers/scenario-cli.js';

const tmp = scenarioDir();

/** Starts `serve` with the given arguments and resolves with its URL once it listens. */
const serve = async (args: string[]) => (await serveCli(['--log-level', 'info', ...args], {}, ROOT)).url;
/** One `serve` without --scenario for the tests that need no other (a start costs ~1.7 s of CPU). */
let plain: Promise<string> | undefined;
const plainServe = () => {
  plain ??= serve(['--clock', 'manual', '--allow-http']);
  return plain;
};

const HTTP_SCENARIO = `name: against a running emulator
receivers:
  - { name: plain, protocol: http, behaviour: [500, 200] }
credentials:
  - { id: t1, apiKey: k-target, url: "receiver:plain" }
users:
  - { username: sdk, password: pw, idWeb: 77, webDescription: SDK, versions: ["1.7"] }
steps:
  - issue: { as: first }
  - advance: { to: next-batch }
  - login: { version: "1.7", username: sdk, password: pw, expect: { ok: true } }
  - expect:
      notifications: { booking: first, state: delivered, attempts: 2, statusCodes: [500, 200], warnings: 1 }
      receiver: { name: plain, count: 2, headers: { authorization: Bearer k-target } }
      requests: { version: "1.7", username: sdk, count: 1 }
`;

describe('serve --scenario and POST /__admin/scenarios/run', () => {
  it('preloads the scenario credentials (pointing at its receivers), users and clock, and runs its steps on demand', async () => {
    const url = await serve(['--scenario', 'scenarios/05-receiver-recovers.yaml']);
    const health = await (await fetch(`${url}/__admin/health`)).json();
    expect(health).toMatchObject({ status: 'ok', clock: 'manual', seed: 3 });
    const credentials = await new AdminClient(url).listCredentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ id: 'main', apiKey: 'k-flaky' });
    expect(credentials[0]!.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+\/reportbo\/notifications$/);

    for (const attempt of [1, 2]) {
      const res = await fetch(`${url}/__admin/scenarios/run`, { method: 'POST' });
      expect(res.status, `run ${attempt}`).toBe(200);
      const answer = (await res.json()) as { result: { steps: unknown[] } };
      expect(answer).toMatchObject({ status: 'passed', summary: { expectations: 5, expectationsFailed: 0 } });
      expect(answer.result.steps).toHaveLength(8);
    }
  });

  it('answers 404 no_scenario when serve was started without --scenario', async () => {
    const url = await plainServe();
    const res = await fetch(`${url}/__admin/scenarios/run`, { method: 'POST' });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: unknown }).error).toMatchObject({ code: 'no_scenario' });
  });

  it('refuses an invalid scenario file at start with exit code 2 and the file position', async () => {
    const bad = tmp.write('bad-serve.yaml', 'name: x\nsteps:\n  - advance: {by: soon}\n');
    const run = await runCli(['serve', '--port', '0', '--scenario', bad]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:3:19: steps[0].advance.by: expected a duration`);
  });
});

describe('reportbo-emulator run --target', () => {
  it('resets a running emulator, adds the scenario credentials and users, and runs the steps against it', async () => {
    const url = await plainServe();
    const file = tmp.write('target.yaml', HTTP_SCENARIO);
    const run = await runCli(['run', '--target', url, file]);
    expect(run.stdout).toContain('1 scenario: 1 passed');
    expect(run.code).toBe(0);
    // The scenario removes what it added, so the next run starts from the same state (two runs in a
    // row: run-target.test.ts).
    const credentials = await new AdminClient(url).listCredentials();
    expect(credentials).toEqual([]);
  });

  it('exits 1 with a clear message when nothing listens at the target', async () => {
    const file = tmp.write('target-down.yaml', HTTP_SCENARIO);
    const run = await runCli(['run', '--target', 'http://127.0.0.1:9', file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(
      'could not set up the scenario: GET /__admin/health: cannot reach the emulator at http://127.0.0.1:9',
    );
  });
});
