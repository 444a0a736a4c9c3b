import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

describe('redelivery batches on a manual clock', () => {
  it('attempts at the first try and at exactly the next four minute-55 batches, then gives up', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const advanced = await emu.advance({ by: 'PT6H' });
    expect(advanced.batches).toHaveLength(6);
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('exhausted');
    expect(n.attempts.map((a) => a.startedAt)).toEqual([
      '2026-04-27T10:00:00.000Z',
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
      '2026-04-27T13:55:00.000Z',
    ]);
    expect(n.attempts.map((a) => a.batchAt)).toEqual([
      undefined,
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
      '2026-04-27T13:55:00.000Z',
    ]);
    expect(n.exhaustedAt).toBe('2026-04-27T13:55:00.000Z');
    expect(r.requests).toHaveLength(5);
    const exhausted = await emu.admin<{ notifications: unknown[] }>('GET', '/notifications?state=exhausted');
    expect(exhausted.body.notifications).toHaveLength(1);
  });

  it('stops after the attempt that succeeds: recovered at the third attempt, never sent again', async () => {
    const r = await receiver();
    r.enqueue(behave.status(500), behave.status(503));
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT8H' });
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('delivered');
    expect(n.attempts.map((a) => [a.startedAt, a.statusCode])).toEqual([
      ['2026-04-27T10:00:00.000Z', 500],
      ['2026-04-27T10:55:00.000Z', 503],
      ['2026-04-27T11:55:00.000Z', 200],
    ]);
    expect(n.deliveredAt).toBe('2026-04-27T11:55:00.000Z');
    expect(r.requests).toHaveLength(3);
  });

  it('retries a failure at 10:54 in the 10:55 batch, and one at 10:56 only at 11:55', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    await emu.advance({ to: '2026-04-27T10:54:00Z' });
    const early = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ to: '2026-04-27T10:56:00Z' });
    const late = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ to: '2026-04-27T11:56:00Z' });
    const a = await emu.notification(early.notifications[0]!.id);
    const b = await emu.notification(late.notifications[0]!.id);
    expect(a.attempts.map((x) => x.startedAt)).toEqual([
      '2026-04-27T10:54:00.000Z',
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
    ]);
    expect(b.attempts.map((x) => x.startedAt)).toEqual([
      '2026-04-27T10:56:00.000Z',
      '2026-04-27T11:55:00.000Z',
    ]);
  });

  it('goes to the next batch on request and runs a batch now when asked', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    expect((await emu.advance({ to: 'next-batch' })).batches).toEqual(['2026-04-27T10:55:00.000Z']);
    await emu.advance({ by: 'PT1M' });
    const run = await emu.admin('POST', '/redelivery/run');
    expect(run).toEqual({
      status: 200,
      body: { at: '2026-04-27T10:56:00.000Z', attempted: 1, delivered: 0, failed: 1, exhausted: 0 },
    });
    // The same instant again: nothing is due twice.
    expect((await emu.admin('POST', '/redelivery/run')).body).toMatchObject({ attempted: 0 });
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.attempts).toHaveLength(3);
    const clock = await emu.admin('GET', '/clock');
    expect(clock.body).toEqual({
      mode: 'manual',
      now: '2026-04-27T10:56:00.000Z',
      nextBatchAt: '2026-04-27T11:55:00.000Z',
    });
  });

  it('skips and records a batch that starts while another is still running', async () => {
    // The receiver holds each answer 3 s: the second run starts once the first batch's attempt has
    // reached it (an event, not a guessed pause), so it always finds that batch running.
    const r = await receiver({ defaultBehaviour: behave.slow(3_000, 500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT1M' });
    const running = emu.admin('POST', '/redelivery/run');
    await r.waitForRequests(2);
    const second = await emu.admin('POST', '/redelivery/run');
    const first = await running;
    expect(first.body).toMatchObject({ attempted: 1, failed: 1 });
    expect(second.body).toMatchObject({
      attempted: 0,
      skipped: true,
      reason: 'previous batch still running',
    });
    const batches = await emu.admin<{ batches: unknown[] }>('GET', '/redelivery/batches');
    expect(batches.body.batches).toHaveLength(2);
    expect(r.requests).toHaveLength(2);
  });

  it('creates a new notification on manual redelivery of a delivered reservation', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const issued = await emu.event({ type: 'Issue' });
    await emu.settle();
    const bookingId = issued.reservations[0]!.bookingId;
    const again = await emu.admin<{ notifications: Array<{ id: string }>; warnings: string[] }>(
      'POST',
      `/reservations/${bookingId}/redeliver`,
      { status: 'Issued' },
    );
    expect(again.status).toBe(202);
    await emu.settle();
    expect(again.body.notifications[0]!.id).not.toBe(issued.notifications[0]!.id);
    expect(again.body.warnings.filter((w) => !w.includes('plain http destination accepted'))).toEqual([]);
    expect((await emu.notification(issued.notifications[0]!.id)).attempts).toHaveLength(1);
    expect((await emu.notification(again.body.notifications[0]!.id)).state).toBe('delivered');
    expect(r.requests).toHaveLength(2);
  });

  it('warns when a manual redelivery changes the status, and notifies the new status', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const issued = await emu.event({ type: 'Issue' });
    await emu.settle();
    const bookingId = issued.reservations[0]!.bookingId;
    const again = await emu.admin<{ notifications: Array<{ id: string }>; warnings: string[] }>(
      'POST',
      `/reservations/${bookingId}/redeliver`,
      { status: 'Voided' },
    );
    expect(again.status).toBe(202);
    expect(again.body.warnings.some((w) => w.includes('Endpoints 2'))).toBe(true);
    await emu.settle();
    expect((await emu.notification(again.body.notifications[0]!.id)).bookingStatus).toBe('Voided');
    const bad = await emu.admin<{ error: { code: string } }>('POST', `/reservations/${bookingId}/redeliver`, {
      status: 'Lost',
    });
    expect(bad.status).toBe(400);
  });

  it('forgets notifications on reset but keeps credentials', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'keep-me', apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    expect((await emu.admin('POST', '/reset')).body).toEqual({ status: 'reset' });
    expect(
      (await emu.admin<{ notifications: unknown[] }>('GET', '/notifications')).body.notifications,
    ).toEqual([]);
    const creds = await emu.admin<{ credentials: Array<{ id: string }> }>('GET', '/credentials');
    expect(creds.body.credentials.map((c) => c.id)).toEqual(['keep-me']);
    const next = await emu.event({ type: 'Issue' });
    expect(next.notifications[0]!.id).toBe('n-000001');
  });
});
