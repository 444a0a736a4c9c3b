import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsInput } from '../src/config/index.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { adminCall } from './helpers/admin-call.js';
import { behave, receiver } from './helpers/receiver.js';

// --notification-retention (issue 31 §4, decision 0127): past it the oldest settled notifications
// are dropped, in memory and in the data dir alike, never a pending one; the list says so.

const dirs: string[] = [];
const running: RunningEmulator[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

async function serve(input: SettingsInput): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, logLevel: 'silent', allowHttp: true, clock: 'manual', ...input });
  running.push(r);
  return r;
}

interface Listed {
  notifications: Array<{ id: string; state: string; createdAt: string }>;
  retention?: { keep: number; dropped: number; oldestKept: string | null };
}

async function events(r: RunningEmulator, count: number): Promise<void> {
  for (let i = 0; i < count; i++)
    expect((await adminCall(r, 'POST', '/events', { type: 'Issue' })).status).toBe(202);
  await adminCall(r, 'GET', '/notifications?wait=settled');
}

describe('--notification-retention', () => {
  it('drops the oldest settled notifications past the setting, says so in the list, and a restart keeps the same', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(200) });
    const dataDir = join(mkdtempSync(join(tmpdir(), 'reportbo-retention-')), 'data');
    dirs.push(join(dataDir, '..'));
    const settings: SettingsInput = { dataDir, notificationRetention: 5 };
    let emu = await serve(settings);
    await adminCall(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'retention-key-01', url: rec.url });
    await events(emu, 8);
    const listed = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(listed.notifications.map((n) => n.id)).toEqual([
      'n-000004',
      'n-000005',
      'n-000006',
      'n-000007',
      'n-000008',
    ]);
    expect(listed.retention).toEqual({ keep: 5, dropped: 3, oldestKept: listed.notifications[0]!.createdAt });
    expect((await adminCall(emu, 'GET', '/notifications/n-000001')).status).toBe(404);
    expect((await adminCall(emu, 'GET', '/config')).body).toMatchObject({ notificationRetention: 5 });

    await emu.close();
    running.splice(running.indexOf(emu), 1);
    emu = await serve(settings);
    const back = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(back.notifications.map((n) => n.id)).toEqual(listed.notifications.map((n) => n.id));
    expect(back.retention).toEqual(listed.retention);
    await rec.close();
  });

  it('never drops a pending notification', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await serve({ notificationRetention: 3 });
    await adminCall(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'retention-key-02', url: rec.url });
    await events(emu, 5);
    const listed = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(listed.notifications).toHaveLength(5);
    expect(listed.notifications.every((n) => n.state === 'pending')).toBe(true);
    expect(listed.retention).toBeUndefined();
    await rec.close();
  });
});
