import { describe, expect, it } from 'vitest';
import type { BatchResult } from '../src/delivery/index.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { CLOCK_START, deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

describe('deleting a credential', () => {
  it('cancels its pending notifications (reason and time on each) and never redelivers them', async () => {
    const failing = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'gone', apiKey: 'k-gone', url: failing.url });
    await emu.credential({ id: 'kept', apiKey: 'k-kept', url: failing.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    expect(failing.requests).toHaveLength(2);
    await emu.advance({ by: 'PT10M' });
    const deleted = await emu.admin('DELETE', '/credentials/gone');
    expect(deleted.status).toBe(204);

    const gone = result.notifications.find((n) => n.credentialId === 'gone')!;
    const kept = result.notifications.find((n) => n.credentialId === 'kept')!;
    const n = await emu.notification(gone.id);
    expect(n).toMatchObject({
      state: 'cancelled',
      cancelReason: 'credential_deleted',
      cancelledAt: '2026-04-27T10:10:00.000Z',
    });
    expect(n.attempts).toHaveLength(1);
    expect((await emu.notification(kept.id)).state).toBe('pending');

    const batch = await emu.advance({ to: 'next-batch' });
    expect(batch.batches).toEqual(['2026-04-27T10:55:00.000Z']);
    await emu.settle();
    // Only the kept credential's notification was redelivered.
    expect(failing.requests.map((q) => q.headers.authorization)).toEqual([
      expect.any(String),
      expect.any(String),
      'Bearer k-kept',
    ]);
    expect((await emu.notification(gone.id)).attempts).toHaveLength(1);
    const cancelled = await emu.admin<{ notifications: Array<{ id: string; cancelReason: string }> }>(
      'GET',
      '/notifications?state=cancelled',
    );
    expect(cancelled.body.notifications).toEqual([
      expect.objectContaining({ id: gone.id, cancelReason: 'credential_deleted' }),
    ]);
  });

  it('lets a running attempt finish, then cancels the notification if it was not delivered', async () => {
    const hanging = await receiver({ defaultBehaviour: behave.hang() });
    // Long enough that the attempt is still running when the credential is deleted, even under load.
    const emu = await deliveryEmulator({ allowHttp: true, responseTimeoutMs: 3_000 });
    await emu.credential({ id: 'c', apiKey: 'k', url: hanging.url });
    const result = await emu.event({ type: 'Issue' });
    await hanging.waitForRequests(1, WAIT_DEADLINE_MS);
    expect((await emu.admin('DELETE', '/credentials/c')).status).toBe(204);
    expect((await emu.notification(result.notifications[0]!.id)).state).toBe('pending');
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n).toMatchObject({ state: 'cancelled', cancelReason: 'credential_deleted' });
    expect(n.attempts.map((a) => a.outcome)).toEqual(['timeout']);
  });

  it('keeps delivered notifications as they were', async () => {
    const ok = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'c', apiKey: 'k', url: ok.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.admin('DELETE', '/credentials/c');
    expect(await emu.notification(result.notifications[0]!.id)).toMatchObject({
      state: 'delivered',
      cancelledAt: null,
      cancelReason: null,
    });
  });
});

describe('POST /__admin/redelivery/run that attempts nothing', () => {
  it('says, per pending notification, that its failure ended at the batch instant and which batch retries it', async () => {
    const failing = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: failing.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const run = await emu.admin<BatchResult>('POST', '/redelivery/run');
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({
      at: '2026-04-27T10:00:00.000Z',
      attempted: 0,
      notAttempted: {
        count: 1,
        byReason: { failed_at_or_after_batch: 1 },
        notifications: [{ id: result.notifications[0]!.id, reason: 'failed_at_or_after_batch' }],
      },
    });
    expect(run.body.notAttempted!.notifications[0]!.message).toBe(
      `its last attempt ended at ${new Date(CLOCK_START).toISOString()}, not before this batch's instant 2026-04-27T10:00:00.000Z: a batch retries attempts that ended before it (spec "Limits"); the next batch, 2026-04-27T10:55:00.000Z, retries it (manual clock: POST /__admin/clock/advance {"to":"next-batch"})`,
    );
    // One emulator second later the same notification is attempted.
    await emu.advance({ by: 'PT1S' });
    const later = await emu.admin<BatchResult>('POST', '/redelivery/run');
    expect(later.body).toMatchObject({ attempted: 1, failed: 1 });
    expect(later.body.notAttempted).toBeUndefined();
  });

  it('says that a notification with an attempt running is in flight', async () => {
    const hanging = await receiver({ defaultBehaviour: behave.hang() });
    const emu = await deliveryEmulator({ allowHttp: true, responseTimeoutMs: 3_000 });
    await emu.credential({ apiKey: 'k', url: hanging.url });
    const result = await emu.event({ type: 'Issue' });
    await hanging.waitForRequests(1, WAIT_DEADLINE_MS);
    const run = await emu.admin<BatchResult>('POST', '/redelivery/run');
    expect(run.body).toMatchObject({
      attempted: 0,
      notAttempted: {
        count: 1,
        byReason: { in_flight: 1 },
        notifications: [
          {
            id: result.notifications[0]!.id,
            reason: 'in_flight',
            message: 'its first attempt is queued or running; a notification is never sent twice at once',
          },
        ],
      },
    });
    const history = await emu.admin<{ batches: BatchResult[] }>('GET', '/redelivery/batches');
    expect(history.body.batches.at(-1)!.notAttempted!.byReason).toEqual({ in_flight: 1 });
    await emu.settle();
  });
});
