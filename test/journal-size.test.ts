/**
 * The journal's size (`journalEntries`, like WireMock's --max-request-journal-entries): how many
 * calls `GET /__admin/requests` keeps, 0 turning it off; and the newest 500 keep their request and
 * answer (`GET /__admin/requests/:id` `exchange`), older ones their summary only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startServer } from '../src/server.js';
import { serveCli } from './helpers/processes.js';
import { runCli, scenarioDir } from './helpers/scenario-cli.js';

let running: RunningEmulator | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

const user = { username: 'alice', password: 'secret', idWeb: 1, webDescription: 'A', versions: ['1.7'] };

async function serve(journalEntries: number) {
  running = await startServer(
    { port: 0, clock: 'manual', logLevel: 'silent', journalEntries },
    {},
    { users: [user] },
  );
  const url = running.url;
  return {
    call: async (n = 1) => {
      for (let i = 0; i < n; i++) {
        const res = await fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ Username: 'alice', Password: 'secret' }),
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    },
    get: async (path: string) => {
      const res = await fetch(`${url}/__admin${path}`);
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    },
  };
}

describe('journalEntries', () => {
  it('keeps the newest N calls', async () => {
    const emu = await serve(3);
    await emu.call(5);
    const { body } = await emu.get('/requests');
    expect((body.requests as Array<{ id: string }>).map((r) => r.id)).toEqual([
      'r-000003',
      'r-000004',
      'r-000005',
    ]);
    expect((await emu.get('/config')).body.journalEntries).toBe(3);
    const gone = await emu.get('/requests/r-000001');
    expect(gone.status).toBe(404);
    expect(JSON.stringify(gone.body)).toContain('it keeps the last 3');
  });

  it('0 turns the journal off: calls are answered, nothing is kept, and the API says why', async () => {
    const emu = await serve(0);
    await emu.call(2);
    expect((await emu.get('/requests')).body.requests).toEqual([]);
    expect((await emu.get('/config')).body.journalEntries).toBe(0);
    const missing = await emu.get('/requests/r-000001');
    expect(missing.status).toBe(404);
    expect(JSON.stringify(missing.body)).toContain('the journal is off (option journalEntries is 0)');
  });

  it('keeps the request and answer of the newest 500 calls and the summary of older ones', async () => {
    const emu = await serve(10_000);
    await emu.call(503);
    const detail = async (id: string) => (await emu.get(`/requests/${id}`)).body;
    for (const id of ['r-000001', 'r-000003']) {
      const old = await detail(id);
      expect(old.id).toBe(id);
      expect(old.outcome).toBe('ok');
      expect(old.exchange).toBeNull();
    }
    const kept = (await detail('r-000004')).exchange as {
      request: { body: string; bodyBytes: number };
      response: { status: number; body: string };
    };
    expect(kept.request.body).toBe(JSON.stringify({ Username: 'alice', Password: 'secret' }));
    expect(kept.request.bodyBytes).toBe(kept.request.body.length);
    expect(kept.response.status).toBe(200);
    expect(JSON.parse(kept.response.body)).toHaveProperty('Token');
  });
});

describe('a scenario against an emulator whose journal is off', () => {
  it('says the journal is off instead of counting 0 calls', async () => {
    const { url } = await serveCli(['--journal-entries', '0']);
    const file = scenarioDir().write(
      'journal-off.yaml',
      `name: journal off
users:
  - { username: sdk, password: secret, idWeb: 1001, webDescription: Agency, versions: ["1.7"] }
steps:
  - login: { version: "1.7", variant: json, username: sdk, password: secret, as: token }
  - expect:
      requests: { count: 1, username: sdk }
`,
    );
    const run = await runCli(['run', file, '--target', url]);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('the journal is off on this emulator (journalEntries 0');
  });
});
