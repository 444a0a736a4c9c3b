import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminOk } from './helpers/admin-call.js';
import { CLOCK_START } from './helpers/clock.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { behave, receiver } from './helpers/receiver.js';

// A redelivery batch that kill -9 cut off (decision 0080): the data dir wrote its start before
// its first attempt, so the next start records it as interrupted, with the attempt it had in
// flight, instead of forgetting it ran. The real CLI (dist/).

describe('a redelivery batch a crash cut off', () => {
  it('is listed after the restart as interrupted, its attempt in flight recorded as interrupted_by_crash', async () => {
    const hang = await receiver({ defaultBehaviour: behave.hang() });
    const data = join(mkdtempSync(join(tmpdir(), 'reportbo-crash-batch-')), 'data');
    const emulator = new DataDirServe(data, [
      '--clock',
      'manual',
      '--clock-start',
      CLOCK_START,
      '--allow-http',
    ]);
    await emulator.start();
    await adminOk(emulator, 'POST', '/credentials', { id: 'c', apiKey: 'k', url: `${hang.url}/hook` });
    await adminOk(emulator, 'POST', '/outages', { attempts: 1 });
    const event = await adminOk<{ notifications: Array<{ id: string }> }>(emulator, 'POST', '/events', {
      type: 'Issue',
    });
    const id = event.notifications[0]!.id;
    await adminOk(emulator, 'GET', '/notifications?wait=settled');
    // The first attempt failed by the outage; the batch's reaches the receiver, which never answers.
    void fetch(`${emulator.url}/__admin/clock/advance`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"to":"next-batch"}',
    }).catch(() => {});
    await hang.waitForRequests(1, WAIT_DEADLINE_MS);
    await emulator.kill();

    await emulator.start();
    const { batches } = await adminOk<{ batches: Array<{ at: string; attempted: number; reason?: string }> }>(
      emulator,
      'GET',
      '/redelivery/batches',
    );
    expect(batches).toHaveLength(1);
    expect(batches[0]).toMatchObject({ attempted: 1 });
    expect(batches[0]!.reason).toMatch(/^interrupted: the emulator stopped while this batch ran/);
    const n = await adminOk<{ attempts: Array<{ outcome: string; batchAt?: string }> }>(
      emulator,
      'GET',
      `/notifications/${id}`,
    );
    expect(n.attempts.map((a) => a.outcome)).toEqual(['simulated_outage', 'interrupted_by_crash']);
    expect(n.attempts[1]!.batchAt).toBe(batches[0]!.at);
    await emulator.stop();
  });
});
