/**
 * `run --target` against a served emulator (the real CLI, both sides) that already holds things of
 * its user's: a credential with the scenario's id, one matching every event, a user, a trusted CA
 * and GetAccessToken journal entries. The run must leave them as they were, its results must not
 * depend on them, and what it cannot apply to a running emulator is said before the run, by name.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOCK_START } from './helpers/clock.js';
import { serveCli } from './helpers/processes.js';
import { behave, type Receiver, receiver } from './helpers/receiver.js';
import { runCli, scenarioDir } from './helpers/scenario-cli.js';
import { testCaFile } from './helpers/tls.js';

const tmp = scenarioDir();

const SCENARIO = `name: a scenario that shares the target
seed: 42
settings: { responseTimeoutMs: 5000 }
receivers: [{ name: ok }]
credentials:
  - { id: main, apiKey: run-key, url: "receiver:ok" }
users:
  - { username: sdk, password: secret, idWeb: 1001, webDescription: Agency, versions: ["1.7"] }
steps:
  - issue: { as: first }
  - expect:
      notifications: { count: 1, state: delivered, attempts: 1 }
  - expect:
      notifications: { credential: main, booking: first, count: 1, statusCode: 200 }
  - exchange: { booking: first, as: second }
  - expect:
      notifications: { credentials: [main], count: 3 }
  - expect:
      receiver: { name: ok, count: 3 }
  - login: { version: "1.7", variant: json, username: sdk, password: secret, as: token }
  - expect:
      login: { name: token, ok: true }
      requests: { count: 1, username: sdk }
`;

let target: string;
let usersReceiver: Receiver;

async function admin(path: string, init?: RequestInit): Promise<unknown> {
  const res = await fetch(`${target}/__admin${path}`, init);
  return res.status === 204 ? undefined : res.json();
}
const post = (path: string, body: unknown) =>
  admin(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** What the run must leave as it found it. */
async function snapshot() {
  return {
    credentials: await admin('/credentials'),
    users: await admin('/users'),
    trust: await admin('/trust'),
  };
}

beforeAll(async () => {
  usersReceiver = await receiver({ defaultBehaviour: behave.status(200) });
  ({ url: target } = await serveCli([
    '--clock',
    'manual',
    '--clock-start',
    CLOCK_START,
    '--seed',
    '7',
    '--allow-http',
    '--ca-file',
    testCaFile(),
  ]));
  // The user's own things on the target: a credential with the scenario's id, one that matches every
  // event, a user and a journal entry.
  await post('/credentials', { id: 'main', apiKey: 'users-key', url: `${usersReceiver.url}/mine` });
  await post('/credentials', { id: 'catch-all', apiKey: 'users-key', url: `${usersReceiver.url}/all` });
  await post('/users', {
    username: 'sdk-other',
    password: 'pw',
    idWeb: 1,
    webDescription: 'theirs',
    versions: ['1.6'],
  });
  await fetch(`${target}/api/1.6/FlightService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'sdk-other', password: 'pw' }),
  });
});

describe('run --target on an emulator that already holds the user’s things', () => {
  it('passes with the counts of an empty emulator, twice in a row, and leaves credentials, users and trusted CAs as it found them, the same-id credential untouched', async () => {
    const before = await snapshot();
    const file = tmp.write('shared.yaml', SCENARIO);
    for (const round of [1, 2]) {
      const run = await runCli(['run', '--target', target, file]);
      expect(run.stdout, `round ${round}`).toContain('1 scenario: 1 passed, 0 failed');
      expect(run.code, run.stdout).toBe(0);
      expect(await snapshot(), `round ${round}`).toEqual(before);
    }
    expect(before.credentials).toEqual({
      credentials: [
        expect.objectContaining({ id: 'main', apiKey: 'users-key', url: `${usersReceiver.url}/mine` }),
        expect.objectContaining({ id: 'catch-all' }),
      ],
    });
    expect((before.trust as { certificates: unknown[] }).certificates).toEqual([
      expect.objectContaining({ source: 'ca-file' }),
    ]);
  });

  it('says what it cannot apply, by name, before the first step', async () => {
    const file = tmp.write('notes.yaml', SCENARIO);
    const run = await runCli(['run', '--target', target, file]);
    const firstStep = run.stdout.indexOf('✓ 1 issue');
    expect(firstStep).toBeGreaterThan(0);
    const notes = run.stdout.slice(0, firstStep);
    expect(notes).toContain('note: not applied to the target: seed 42 (the target generates with seed 7');
    expect(notes).toContain('note: not applied to the target: settings.responseTimeoutMs');
    expect(notes).toMatch(/note: credentials are added to the target as main\.run-[0-9a-f]{6}/);
    // The target's manual clock is where the scenario starts it: nothing to say about the clock.
    expect(notes).not.toContain('clock');
  });

  it('names the clock mode a target cannot take', async () => {
    const file = tmp.write(
      'clock.yaml',
      'name: compressed\nclock: { mode: compressed, hourMs: 2000 }\nsteps:\n  - issue: {}\n',
    );
    const run = await runCli(['run', '--target', target, file]);
    expect(run.stdout).toContain(
      "note: not applied to the target: clock.mode compressed (the target's clock is manual)",
    );
    expect(run.stdout).toContain('note: not applied to the target: clock.hourMs 2000');
  });

  it('stops, changing nothing, when the target holds a different user of the same name', async () => {
    await post('/users', {
      username: 'clash',
      password: 'theirs',
      idWeb: 5,
      webDescription: 'x',
      versions: ['1.7'],
    });
    const before = await snapshot();
    const file = tmp.write(
      'clash.yaml',
      `name: clash
credentials: [{ id: main, apiKey: k, url: "${usersReceiver.url}/x" }]
users: [{ username: clash, password: mine, idWeb: 6, webDescription: y }]
steps:
  - issue: {}
`,
    );
    const run = await runCli(['run', '--target', target, file]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('the target already has a user "clash" that differs from the scenario\'s');
    expect(run.stdout).toContain('DELETE /__admin/users/clash');
    expect(await snapshot()).toEqual(before);
  });
});
