/**
 * Everything that drives an emulator's admin API passes its token (docs/admin-api.md "Security"):
 * the programmatic client, `startEmulator`, `run --target` (flag or environment), and the scenario
 * `serve --scenario` runs on request. Without the token each says what is missing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../src/client/index.js';
import { startEmulator } from '../src/index.js';
import { runMain } from './helpers/cli.js';
import { serveCli } from './helpers/processes.js';
import { runCli, scenarioDir } from './helpers/scenario-cli.js';

const TOKEN = 'clients-token-77d0';
const tmp = scenarioDir();
const SCENARIO = `name: a scenario against a guarded emulator
receivers: [{ name: ok }]
credentials:
  - { id: main, apiKey: run-key, url: "receiver:ok" }
steps:
  - issue: { as: first }
  - expect:
      notifications: { count: 1, state: delivered }
`;

let target: string;
beforeAll(async () => {
  ({ url: target } = await serveCli(['--clock', 'manual', '--allow-http'], { REPORTBO_ADMIN_TOKEN: TOKEN }));
});

describe('run --target against an emulator with a token', () => {
  it('passes with --admin-token and with REPORTBO_ADMIN_TOKEN', async () => {
    const file = tmp.write('guarded.yaml', SCENARIO);
    const withFlag = await runCli(['run', '--target', target, '--admin-token', TOKEN, file]);
    expect(withFlag.stdout).toContain('1 scenario: 1 passed, 0 failed');
    expect(withFlag.code, withFlag.stdout + withFlag.stderr).toBe(0);
    const withEnv = await runCli(['run', '--target', target, file], { REPORTBO_ADMIN_TOKEN: TOKEN });
    expect(withEnv.code, withEnv.stdout + withEnv.stderr).toBe(0);
  });

  it('fails without the token, saying which token is missing', async () => {
    const file = tmp.write('unguarded.yaml', SCENARIO);
    const run = await runCli(['run', '--target', target, file], { REPORTBO_ADMIN_TOKEN: '' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('requires the token set with environment variable REPORTBO_ADMIN_TOKEN');
  });

  it('lists --admin-token in run --help', async () => {
    // The same main() in this process (cli-run.test.ts reads run --help through the real CLI).
    const help = await runMain(['run', '--help']);
    expect(help.stdout).toContain('--admin-token <token>');
    expect(help.stdout).toContain('REPORTBO_ADMIN_TOKEN');
  });
});

describe('the programmatic client', () => {
  it('sends adminToken on every call; without it the answer is a 401 naming the token', async () => {
    const client = new AdminClient(target, { adminToken: TOKEN });
    expect((await client.config()).adminToken).toBe(true);
    await expect(new AdminClient(target).config()).rejects.toMatchObject({
      status: 401,
      code: 'admin_token_missing',
    });
    // Health answers probes without the token.
    expect((await new AdminClient(target).health()).status).toBe('ok');
  });
});

describe('POST /__admin/verify with a token', () => {
  it('runs with the token (here: refuses the empty options with 400) and is refused without it', async () => {
    const post = (headers: Record<string, string>) =>
      fetch(`${target}/__admin/verify`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: '{}',
      });
    const withToken = await post({ authorization: `Bearer ${TOKEN}` });
    expect(withToken.status).toBe(400);
    expect(((await withToken.json()) as { error: { code: string } }).error.code).toBe(
      'verify_options_invalid',
    );
    expect((await post({})).status).toBe(401);
  });
});

describe('startEmulator with adminToken', () => {
  let emulator: Awaited<ReturnType<typeof startEmulator>>;
  beforeAll(async () => {
    emulator = await startEmulator({ adminToken: TOKEN });
  });
  afterAll(() => emulator.stop());

  it('hands back a client that carries the token', async () => {
    const answer = await emulator.emit({ type: 'Issue' });
    expect(answer.reservations).toHaveLength(1);
    const raw = await fetch(`${emulator.url}/__admin/reservations`);
    expect(raw.status).toBe(401);
  });
});

describe('serve --scenario with a token', () => {
  it('runs its scenario on POST /__admin/scenarios/run with the token', async () => {
    const file = tmp.write('served.yaml', SCENARIO);
    const { url } = await serveCli(['--scenario', file], { REPORTBO_ADMIN_TOKEN: TOKEN });
    const res = await fetch(`${url}/__admin/scenarios/run`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    const body = (await res.json()) as { status: string };
    expect(body.status, JSON.stringify(body)).toBe('passed');
  });
});
