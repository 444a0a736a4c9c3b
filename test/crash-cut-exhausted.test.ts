/**
 * A crash-interrupted attempt counts toward the 5 (docs/delivery.md "State across restarts"), so a
 * notification the receiver may have acknowledged can end exhausted: the API and the inspector say
 * so (issue 31 §5). Real CLI, real data dir, a real SIGKILL.
 */
import { describe, expect, it } from 'vitest';
import { adminOk } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { behave, receiver } from './helpers/receiver.js';

const post = (url: string, path: string, body: unknown) => adminOk({ url }, 'POST', path, body);

describe('an exhausted notification whose attempts a crash cut off', () => {
  it('is marked "exhausted; 1 attempt cut off by a crash: the receiver may have acknowledged"', async () => {
    const hang = await receiver({ defaultBehaviour: behave.hang() });
    const emulator = DataDirServe.manual('reportbo-crash-cut-');
    let url = await emulator.start();
    await post(url, '/credentials', { id: 'c', apiKey: 'k', url: `${hang.url}/hook` });
    await post(url, '/outages', { attempts: 4 });
    const event = await post(url, '/events', { type: 'Issue' });
    const id = (event.notifications as Array<{ id: string }>)[0]!.id;
    for (let i = 0; i < 3; i++) await post(url, '/clock/advance', { to: 'next-batch' });
    // Four attempts failed by the outage; the fifth reaches the receiver, which never answers.
    void fetch(`${url}/__admin/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"to":"next-batch"}',
    }).catch(() => {});
    await hang.waitForRequests(1, WAIT_DEADLINE_MS);
    await emulator.kill();

    url = await emulator.start();
    const n = (await (await fetch(`${url}/__admin/notifications/${id}`)).json()) as {
      state: string;
      stateNote: string | null;
      attempts: Array<{ outcome: string }>;
    };
    expect(n.attempts.map((a) => a.outcome)).toEqual([
      'simulated_outage',
      'simulated_outage',
      'simulated_outage',
      'simulated_outage',
      'interrupted_by_crash',
    ]);
    expect(n.state).toBe('exhausted');
    expect(n.stateNote).toBe('exhausted; 1 attempt cut off by a crash: the receiver may have acknowledged');
    const list = (await (await fetch(`${url}/__admin/notifications`)).json()) as {
      notifications: Array<{ id: string; stateNote: string | null }>;
    };
    expect(list.notifications.find((x) => x.id === id)?.stateNote).toContain('cut off by a crash');
    expect(await emulator.stop()).toBe(0);
  });
});
