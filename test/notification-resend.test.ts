/**
 * Resend and bulk retry (issue 28 §3, §4): a notification sent again to its own credential only, the
 * same bytes, without touching the reservation; an edited body validated against the contract and
 * sent to the credentials chosen; "every failed delivery of credential C since T", counted first.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { deliveryEmulator, issuedToTwoReceivers } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

interface Problem {
  error: { code: string; message: string; details: { path?: string; accepted?: string[] } };
}
interface Resent {
  from: string;
  edited: boolean;
  notifications: Array<{ id: string; credentialId: string }>;
}

describe('POST /__admin/notifications/:id/resend', () => {
  it("sends the same bytes again to the notification's own credential only, leaving the reservation as it is", async () => {
    const { emu, a, b, issued } = await issuedToTwoReceivers();
    const original = issued.notifications.find((n) => n.credentialId === 'a')!;
    const res = await emu.admin<Resent>('POST', `/notifications/${original.id}/resend`, {});
    expect(res.status).toBe(202);
    expect(res.body.from).toBe(original.id);
    expect(res.body.notifications.map((n) => n.credentialId)).toEqual(['a']);
    await emu.settle();
    expect(a.requests).toHaveLength(2);
    expect(b.requests).toHaveLength(1);
    expect(a.requests[1]!.rawBody.equals(a.requests[0]!.rawBody)).toBe(true);
    const reservation = await emu.admin<{ status: string }>('GET', `/reservations/${original.bookingId}`);
    expect(reservation.body.status).toBe('Issued');
    // Linked both ways: the resend names its original, the original its resends.
    const again = await emu.notification(res.body.notifications[0]!.id);
    expect(again.state).toBe('delivered');
    expect(again.resentFrom).toBe(original.id);
    const first = await emu.notification(original.id);
    expect(first.resentFrom).toBeNull();
    expect(first.resentAs).toEqual([again.id]);
    const twice = await emu.admin<Resent>('POST', `/notifications/${original.id}/resend`, {});
    expect((await emu.notification(original.id)).resentAs).toEqual([
      again.id,
      twice.body.notifications[0]!.id,
    ]);
    expect((await emu.notification(again.id)).resentAs).toEqual([]);
  });

  it('sends an edited body to the credentials chosen, and names the field of an invalid one', async () => {
    const { emu, a, b, issued } = await issuedToTwoReceivers();
    const id = issued.notifications[0]!.id;
    const body = (await emu.notification(id)).body as { Pax: Array<{ LastName: string }> };
    body.Pax[0]!.LastName = 'Edited';
    const res = await emu.admin<Resent>('POST', `/notifications/${id}/resend`, {
      body,
      credentialIds: ['b'],
    });
    expect(res.status).toBe(202);
    expect(res.body.edited).toBe(true);
    await emu.settle();
    expect(a.requests).toHaveLength(1);
    expect(b.requests).toHaveLength(2);
    const sent = JSON.parse(gunzipSync(b.requests[1]!.rawBody).toString('utf8'));
    expect(sent.Pax[0].LastName).toBe('Edited');

    const wrong = structuredClone(body) as unknown as { Reservation: { BookingNumber: unknown } };
    wrong.Reservation.BookingNumber = 42;
    const refused = await emu.admin<Problem>('POST', `/notifications/${id}/resend`, { body: wrong });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('body_invalid');
    expect(refused.body.error.details.path).toBe('Reservation.BookingNumber');
    const unknown = await emu.admin<Problem>('POST', `/notifications/${id}/resend`, { credentialIds: ['c'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details).toMatchObject({ path: 'credentialIds', accepted: ['a', 'b'] });
    expect((await emu.admin('POST', '/notifications/n-999999/resend', {})).status).toBe(404);
  });
});

describe('POST /__admin/notifications/resend-failed', () => {
  it("counts a credential's failed notifications since T, then resends the exhausted and retries the pending", async () => {
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'bad', apiKey: 'k', url: bad.url });
    await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    for (let i = 0; i < 4; i++) await emu.advance({ to: 'next-batch' }); // 5 attempts: exhausted
    await emu.settle();
    const later = (await emu.event({ type: 'Issue' })).at; // one failure, still pending
    await emu.settle();

    const counted = await emu.admin<{ count: number; dryRun: boolean; resent: unknown[] }>(
      'POST',
      '/notifications/resend-failed',
      { credentialId: 'bad', since: '2026-04-27T00:00:00Z', dryRun: true },
    );
    expect(counted.body).toMatchObject({
      count: 3,
      ids: ['n-000001', 'n-000002', 'n-000003'],
      dryRun: true,
      resent: [],
    });
    expect(bad.requests).toHaveLength(11); // nothing sent by the count

    const onlyLater = await emu.admin<{ count: number }>('POST', '/notifications/resend-failed', {
      credentialId: 'bad',
      since: later,
      dryRun: true,
    });
    expect(onlyLater.body.count).toBe(1);

    bad.setDefault(behave.status(200));
    const run = await emu.admin<{ count: number; resent: Array<{ id: string }>; retried: string[] }>(
      'POST',
      '/notifications/resend-failed',
      { credentialId: 'bad', since: '2026-04-27T00:00:00Z' },
    );
    expect(run.body.count).toBe(3);
    expect(run.body.resent).toHaveLength(2);
    expect(run.body.retried).toEqual(['n-000003']);
    await emu.settle();
    for (const n of run.body.resent) expect((await emu.notification(n.id)).state).toBe('delivered');
    expect((await emu.notification('n-000003')).state).toBe('delivered');
  });
});
