import { type ChildProcess, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './helpers/cli.js';
import { serveCli } from './helpers/processes.js';

const dir = mkdtempSync(join(tmpdir(), 'reportbo-cold-start-'));
const config = join(dir, 'config.json');
writeFileSync(
  config,
  JSON.stringify({
    users: [{ username: 'cold', password: 'pw', idWeb: 77, webDescription: 'Cold', versions: ['1.7'] }],
  }),
);
const children: ChildProcess[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `serve` as a fresh process; resolves once it logs its URL. */
async function serve(args: string[]): Promise<{ url: string }> {
  const { url, started } = await serveCli(['--config', config, ...args]);
  children.push(started.child);
  return { url };
}

async function token17(url: string): Promise<Response> {
  return fetch(`${url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'cold', Password: 'pw' }),
  });
}

describe('serve start-up', () => {
  it('answers health, a 1.7 JSON GetAccessToken and an Issue event as soon as it listens', async () => {
    const { url } = await serve(['--clock', 'manual']);
    const health = await fetch(`${url}/__admin/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', clock: 'manual' });
    const res = await token17(url);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ Token: expect.stringMatching(/\S/), TransactionCode: null });
    const issued = await fetch(`${url}/__admin/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'Issue' }),
    });
    expect(issued.status).toBe(202);
    expect(await issued.json()).toMatchObject({ reservations: [{ status: 'Issued' }] });
  });

  it('runs a real clock whose next batch is at minute 55 of the wall hour', async () => {
    const { url } = await serve([]);
    expect((await token17(url)).status).toBe(200);
    // The wall clock read around the request brackets the server's "now": the next minute 55 lies
    // after the first read and at most one hour after the second (no tolerance for a slow machine).
    const before = Date.now();
    const clock = (await (await fetch(`${url}/__admin/clock`)).json()) as {
      mode: string;
      nextBatchAt: string;
    };
    const after = Date.now();
    expect(clock.mode).toBe('real');
    expect(clock.nextBatchAt).toMatch(/:55:00\.000Z$/);
    const next = Date.parse(clock.nextBatchAt);
    expect(next).toBeGreaterThan(before);
    expect(next).toBeLessThanOrEqual(after + 3_600_000);
  });

  it('answers an unknown admin path with the route_not_found problem', async () => {
    const { url } = await serve(['--clock', 'manual']);
    const res = await fetch(`${url}/__admin/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { code: 'route_not_found' } });
    expect((await fetch(`${url}/__admin/health`)).status).toBe(200);
  });

  it('outside a server, hands out a reservation store and a delivery engine usable at once, through the package entry', () => {
    // Plain Node on the built package, through the package entry as a user would.
    const script = `
      const { createEmulator } = await import(${JSON.stringify(`${ROOT}dist/index.js`)});
      const emulator = createEmulator({ clock: 'manual', logLevel: 'silent', seed: 3 });
      const issued = emulator.reservations.apply({ type: 'Issue' });
      const routed = emulator.delivery.dispatch(issued.emit);
      let refused;
      try {
        await createEmulator({ logLevel: 'silent' }, {}, { credentials: [{ apiKey: 'k', url: 'http://x.example/' }] }).ready;
      } catch (err) {
        refused = err.code;
      }
      await emulator.stop();
      console.log(JSON.stringify({ status: issued.reservations[0].status, routedTo: routed.routedTo, refused }));
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual({
      status: 'Issued',
      routedTo: 0,
      refused: 'http_not_allowed',
    });
  });
});
