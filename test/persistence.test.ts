import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SettingsInput } from '../src/config/index.js';
import { startServer } from '../src/server.js';
import { adminCall } from './helpers/admin-call.js';
import { runCli } from './helpers/cli.js';
import { freshDataDir, restart, serve, stop } from './helpers/data-dir.js';
import { behave, receiver } from './helpers/receiver.js';

// --data-dir (decision 0080): what a restart reads back, what reset clears, and the refusals.

const freshDir = () => freshDataDir();

describe('--data-dir', () => {
  it('reads back users, credentials, faults, outages, reservations, notifications with attempts, batches and the manual clock', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const settings: SettingsInput = {
      dataDir: freshDir(),
      clock: 'manual',
      clockStart: '2026-04-27T10:00:00Z',
    };
    let emu = await serve(settings);
    await adminCall(emu, 'POST', '/users', {
      username: 'ana',
      password: 'pw',
      idWeb: 7,
      webDescription: 'Ana',
    });
    await adminCall(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'persisted-key-01', url: rec.url });
    await adminCall(emu, 'POST', '/faults', { kind: 'status', status: 503, count: 3 });
    await adminCall(emu, 'POST', '/outages', {
      credentialId: 'c1',
      from: '2030-01-01T00:00:00Z',
      for: 'PT1H',
    });
    const event = await adminCall<{
      notifications: Array<{ id: string }>;
      reservations: Array<{ bookingId: number }>;
    }>(emu, 'POST', '/events', { type: 'Issue' });
    await adminCall(emu, 'GET', '/notifications?wait=settled');
    await adminCall(emu, 'POST', '/clock/advance', { by: 'PT1H' });
    await adminCall(emu, 'GET', '/notifications?wait=settled');
    const before = await adminCall(emu, 'GET', `/notifications/${event.body.notifications[0]!.id}`);

    emu = await restart(emu, settings);
    expect((await adminCall(emu, 'GET', '/config')).body.dataDir).toBe(settings.dataDir);
    expect((await adminCall(emu, 'GET', '/users')).body).toEqual({
      users: [{ username: 'ana', idWeb: 7, webDescription: 'Ana', versions: ['1.6', '1.7'] }],
      total: 1,
      nextCursor: null,
      newerCursor: null,
    });
    expect((await adminCall(emu, 'GET', '/credentials')).body).toMatchObject({
      credentials: [{ id: 'c1', url: `${rec.url}/` }],
    });
    expect((await adminCall(emu, 'GET', '/faults')).body).toMatchObject({
      faults: [{ kind: 'status', remaining: 3 }],
    });
    expect((await adminCall(emu, 'GET', '/outages')).body).toMatchObject({
      outages: [{ id: 'o-1', credentialId: 'c1', from: '2030-01-01T00:00:00.000Z', status: 'scheduled' }],
    });
    expect((await adminCall(emu, 'GET', '/clock')).body.now).toBe('2026-04-27T11:00:00.000Z');
    const bookingId = event.body.reservations[0]!.bookingId;
    expect((await adminCall(emu, 'GET', `/reservations/${bookingId}`)).body).toMatchObject({
      bookingId,
      status: 'Issued',
    });
    const after = await adminCall(emu, 'GET', `/notifications/${event.body.notifications[0]!.id}`);
    expect(after.body).toEqual(before.body);
    expect((after.body as { attempts: unknown[] }).attempts).toHaveLength(2);
    expect((await adminCall(emu, 'GET', '/redelivery/batches')).body).toMatchObject({
      batches: [{ at: '2026-04-27T10:55:00.000Z', attempted: 1, failed: 1 }],
    });
    // New ids go on after the ones read back.
    const next = await adminCall<{ notifications: Array<{ id: string }> }>(emu, 'POST', '/events', {
      type: 'Issue',
    });
    expect(next.body.notifications[0]!.id).toBe('n-000002');
    await rec.close();
  });

  it('reset clears what reset forgets from the data dir too, and keeps users and credentials', async () => {
    const settings: SettingsInput = { dataDir: freshDir(), clock: 'manual' };
    let emu = await serve(settings);
    await adminCall(emu, 'POST', '/users', {
      username: 'bo',
      password: 'pw',
      idWeb: 1,
      webDescription: 'Bo',
    });
    await adminCall(emu, 'POST', '/credentials', {
      id: 'c1',
      apiKey: 'persisted-key-02',
      url: 'http://127.0.0.1:9/x',
    });
    await adminCall(emu, 'POST', '/events', { type: 'Issue' });
    await adminCall(emu, 'POST', '/reset');
    emu = await restart(emu, settings);
    expect(
      (await adminCall<{ reservations: unknown[] }>(emu, 'GET', '/reservations')).body.reservations,
    ).toEqual([]);
    expect(
      (await adminCall<{ notifications: unknown[] }>(emu, 'GET', '/notifications')).body.notifications,
    ).toEqual([]);
    expect((await adminCall<{ users: unknown[] }>(emu, 'GET', '/users')).body.users).toHaveLength(1);
    expect(
      (await adminCall<{ credentials: unknown[] }>(emu, 'GET', '/credentials')).body.credentials,
    ).toHaveLength(1);
  });

  it('records every batch instant a compressed clock passed while the emulator was down: the latest runs, the others are skipped with the reason', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const settings: SettingsInput = {
      dataDir: freshDir(),
      clock: 'compressed',
      hourMs: 400,
      clockStart: '2026-04-27T10:00:00Z',
    };
    let emu = await serve(settings);
    await adminCall(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'persisted-key-03', url: rec.url });
    await adminCall(emu, 'POST', '/events', { type: 'Issue' });
    await adminCall(emu, 'GET', '/notifications?wait=settled');
    await stop(emu);
    await new Promise((r) => setTimeout(r, 2_000)); // ~5 emulator hours pass while it is down
    emu = await serve(settings);
    const { batches } = (
      await adminCall<{
        batches: Array<{ at: string; skipped?: boolean; reason?: string; attempted: number }>;
      }>(emu, 'GET', '/redelivery/batches')
    ).body;
    const down = batches.filter((b) => b.reason?.includes('the emulator was not running'));
    expect(down.length).toBeGreaterThanOrEqual(2);
    expect(down.every((b) => b.skipped)).toBe(true);
    // Every hour between the first batch and the last is there once: none lost, none doubled.
    const at = batches.map((b) => Date.parse(b.at));
    for (let i = 1; i < at.length; i++) expect(at[i]! - at[i - 1]!).toBe(3_600_000);
    const caughtUp = batches.find((b) => Date.parse(b.at) === Date.parse(down.at(-1)!.at) + 3_600_000);
    expect(caughtUp?.skipped).toBeUndefined();
    await rec.close();
  });

  it('keeps what a config file preloaded, also once the file no longer lists it', async () => {
    const dataDir = freshDir();
    const first = await startServer(
      { port: 0, logLevel: 'silent', dataDir, clock: 'manual' },
      {},
      { users: [{ username: 'from-config', password: 'pw', idWeb: 3, webDescription: 'C' }] },
    );
    await first.close();
    const emu = await serve({ dataDir, clock: 'manual' });
    expect(
      (await adminCall<{ users: Array<{ username: string }> }>(emu, 'GET', '/users')).body.users,
    ).toMatchObject([{ username: 'from-config' }]);
  });

  it('refuses a second emulator on the same data dir, naming the first', async () => {
    const dataDir = freshDir();
    const first = await serve({ dataDir, clock: 'manual' });
    await expect(serve({ dataDir, clock: 'manual' })).rejects.toThrow(
      new RegExp(`in use by another emulator \\(pid ${process.pid} on .+, port ${first.port},`),
    );
  });

  it('refuses, from the CLI, a data dir written by a newer format', async () => {
    const dataDir = freshDir();
    await stop(await serve({ dataDir, clock: 'manual' }));
    writeFileSync(join(dataDir, 'format.json'), JSON.stringify({ format: 99 }));
    const run = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`The data dir ${dataDir} was written by a newer emulator (format 99;`);
    expect(run.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
  });

  it('refuses, from the CLI, a data dir that is a file, saying why', async () => {
    const dataDir = freshDir();
    writeFileSync(dataDir, 'not a directory');
    const run = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(`Cannot use the data dir ${dataDir}: EEXIST: file already exists.`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});
