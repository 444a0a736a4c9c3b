import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { adminOk } from './helpers/admin-call.js';
import { dataDirSettings, restart, serve } from './helpers/data-dir.js';

// Issue 26: four admin writes were answered but not kept under --data-dir; after a restart the old
// state came back. Each test makes the write, restarts on the same data dir and reads it back.

const settings = () => dataDirSettings('reportbo-dd-writes-');

const admin = (r: RunningEmulator, method: string, path: string, body?: unknown) =>
  adminOk(r, method, path, body);

describe('--data-dir keeps every admin write across a restart', () => {
  it('PUT /__admin/credentials/:id: the new URL and key come back, not the old ones', async () => {
    const s = settings();
    let emu = await serve(s);
    await admin(emu, 'POST', '/credentials', {
      id: 'c1',
      apiKey: 'old-key-000001',
      url: 'http://127.0.0.1:9/old',
    });
    await admin(emu, 'PUT', '/credentials/c1', { apiKey: 'new-key-000002', url: 'http://127.0.0.1:9/new' });
    const before = await admin(emu, 'GET', '/credentials');
    emu = await restart(emu, s);
    const after = await admin(emu, 'GET', '/credentials');
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      credentials: [{ id: 'c1', apiKey: 'new-key-000002', url: 'http://127.0.0.1:9/new' }],
    });
  });

  it('PUT /__admin/users/:username: the changed user comes back, not the old one', async () => {
    const s = settings();
    let emu = await serve(s);
    await admin(emu, 'POST', '/users', { username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Old' });
    await admin(emu, 'PUT', '/users/ana', {
      password: 'pw2',
      idWeb: 8,
      webDescription: 'New',
      versions: ['1.7'],
    });
    const before = await admin(emu, 'GET', '/users');
    emu = await restart(emu, s);
    const after = await admin(emu, 'GET', '/users');
    expect(after).toEqual(before);
    expect(after).toEqual({
      users: [{ username: 'ana', idWeb: 8, webDescription: 'New', versions: ['1.7'] }],
      total: 1,
      nextCursor: null,
      newerCursor: null,
    });
  });

  it('DELETE /__admin/faults: a cleared fault does not come back', async () => {
    const s = settings();
    let emu = await serve(s);
    await admin(emu, 'POST', '/faults', { kind: 'status', status: 503, count: 3 });
    await admin(emu, 'DELETE', '/faults');
    emu = await restart(emu, s);
    expect(await admin(emu, 'GET', '/faults')).toEqual({ faults: [] });
  });

  it('DELETE /__admin/outages: cleared outages do not come back', async () => {
    const s = settings();
    let emu = await serve(s);
    await admin(emu, 'POST', '/outages', { from: '2030-01-01T00:00:00Z', for: 'PT1H' });
    await admin(emu, 'DELETE', '/outages');
    emu = await restart(emu, s);
    expect(await admin(emu, 'GET', '/outages')).toEqual({ outages: [] });
  });
});
