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
  retention?: { keep: number; dropped: number; oldestKept: string | null; exhaustedKept: number };
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
    expect(listed.retention).toEqual({
      keep: 5,
      dropped: 3,
      oldestKept: listed.notifications[0]!.createdAt,
      exhaustedKept: 0,
    });
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

  /** Two exhausted notifications (5 failed attempts: the first and 4 batches), then four delivered. */
  async function exhaustedThenDelivered(settings: SettingsInput): Promise<RunningEmulator> {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await serve(settings);
    await adminCall(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'retention-key-03', url: rec.url });
    await events(emu, 2);
    for (let batch = 0; batch < 4; batch++) {
      expect((await adminCall(emu, 'POST', '/clock/advance', { to: 'next-batch' })).status).toBe(200);
      await adminCall(emu, 'GET', '/notifications?wait=settled');
    }
    rec.setDefault(behave.status(200));
    // One at a time: retention runs as a notification is created, and skips one in flight.
    for (let i = 0; i < 4; i++) await events(emu, 1);
    return emu;
  }

  it('keeps exhausted notifications past the setting until a bulk retry takes them, and says so (issue 43 §8)', async () => {
    const emu = await exhaustedThenDelivered({ notificationRetention: 3 });
    const kept = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(kept.notifications.map((n) => [n.id, n.state])).toEqual([
      ['n-000001', 'exhausted'],
      ['n-000002', 'exhausted'],
      ['n-000006', 'delivered'],
    ]);
    expect(kept.retention).toMatchObject({ keep: 3, dropped: 3, exhaustedKept: 2 });
    // The dry run says what retention dropped and keeps for it.
    const counted = await adminCall<{ count: number; retention: unknown }>(
      emu,
      'POST',
      '/notifications/resend-failed',
      {
        credentialId: 'c1',
        since: '2000-01-01T00:00:00Z',
        dryRun: true,
      },
    );
    expect(counted.body).toMatchObject({ count: 2, retention: { keep: 3, dropped: 3, exhaustedKept: 2 } });
    // The bulk retry resends both; once taken, the exhausted originals may go.
    const retried = await adminCall<{ resent: unknown[] }>(emu, 'POST', '/notifications/resend-failed', {
      credentialId: 'c1',
      since: '2000-01-01T00:00:00Z',
    });
    expect(retried.body.resent).toHaveLength(2);
    await adminCall(emu, 'GET', '/notifications?wait=settled');
    const after = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(after.notifications.map((n) => n.id)).toEqual(['n-000006', 'n-000007', 'n-000008']);
    expect(after.retention).toMatchObject({ keep: 3, dropped: 5, exhaustedKept: 0 });
  });

  it('--retention-drops-exhausted lets the setting drop them like any settled notification', async () => {
    const emu = await exhaustedThenDelivered({ notificationRetention: 3, retentionDropsExhausted: true });
    const listed = (await adminCall<Listed>(emu, 'GET', '/notifications')).body;
    expect(listed.notifications.map((n) => n.id)).toEqual(['n-000004', 'n-000005', 'n-000006']);
    expect(listed.retention).toMatchObject({ keep: 3, dropped: 3, exhaustedKept: 0 });
    expect((await adminCall(emu, 'GET', '/config')).body).toMatchObject({ retentionDropsExhausted: true });
    // The bulk retry's dry run finds none of the exhausted ones and says retention dropped 3.
    const counted = await adminCall<{ count: number; retention: unknown }>(
      emu,
      'POST',
      '/notifications/resend-failed',
      {
        credentialId: 'c1',
        since: '2000-01-01T00:00:00Z',
        dryRun: true,
      },
    );
    expect(counted.body).toMatchObject({ count: 0, retention: { keep: 3, dropped: 3, exhaustedKept: 0 } });
  });
});
