/**
 * Resend, retry and bulk retry send exactly the copies asked for (issue 41 §1, issue 43 §2): a resend
 * settles its pending original unless the user keeps it; a resend whose booking changed status since
 * warns before sending and keeps the warning; a bulk retry takes each failed delivery once, however
 * often and however concurrently it is called, and says what it skipped and why. Every check is at a
 * real receiver through the admin API over HTTP.
 */
import { describe, expect, it } from 'vitest';
import type * as T from '../src/client/types.js';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { behave, type Receiver, receiver } from './helpers/receiver.js';

type Resent = T.ResendResult;
type Bulk = T.ResendFailedResult;

/** An emulator with credential `a` posting to a receiver that fails every request until told. */
async function failingReceiver(): Promise<{ emu: DeliveryHarness; a: Receiver }> {
  const a = await receiver({ defaultBehaviour: behave.status(503) });
  const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
  await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url });
  return { emu, a };
}

/** The requests `r` got for BookingNumber `bookingNumber`, as the receiver saw them. */
const copiesOf = (r: Receiver, bookingNumber: string) =>
  r.requests.filter((q) => JSON.parse(q.body).Reservation.BookingNumber === bookingNumber);

/** Two batches (the next two minute 55s), each awaited with its attempts. */
async function twoBatches(emu: DeliveryHarness): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await emu.advance({ to: 'next-batch' });
    await emu.settle();
  }
}

/** `count` Issues whose five attempts all failed: exhausted. */
async function exhausted(emu: DeliveryHarness, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push((await emu.event({ type: 'Issue' })).notifications[0]!.id);
  await emu.settle();
  for (let i = 0; i < 4; i++) {
    await emu.advance({ to: 'next-batch' });
    await emu.settle();
  }
  for (const id of ids) expect((await emu.notification(id)).state).toBe('exhausted');
  return ids;
}

const bulk = (emu: DeliveryHarness, input: Record<string, unknown> = {}) =>
  emu.admin<Bulk>('POST', '/notifications/resend-failed', {
    credentialId: 'a',
    since: '2026-01-01T00:00:00Z',
    ...input,
  });

describe('a resend settles its original', () => {
  it('cancels a pending original (reason "resent"): the receiver gets the one copy announced, nothing more after two batches', async () => {
    const { emu, a } = await failingReceiver();
    const original = (await emu.event({ type: 'Issue' })).notifications[0]!;
    await emu.settle();
    const bookingNumber = (await emu.notification(original.id)).bookingNumber;
    a.setDefault(behave.status(200));

    const preview = await emu.admin<Resent>('POST', `/notifications/${original.id}/resend`, { dryRun: true });
    expect(preview.status).toBe(202); // the route's one success status; nothing was sent (dryRun)
    expect(preview.body).toMatchObject({
      dryRun: true,
      notifications: [],
      original: { id: original.id, state: 'pending', becomes: 'cancelled' },
      targets: [{ credentialId: 'a', body: 'as sent' }],
    });
    expect(preview.body.message).toContain('stops being redelivered');
    expect(copiesOf(a, bookingNumber)).toHaveLength(1); // the failed first attempt only

    const sent = await emu.admin<Resent>('POST', `/notifications/${original.id}/resend`, {});
    expect(sent.status).toBe(202);
    expect(sent.body.original).toMatchObject({ id: original.id, becomes: 'cancelled' });
    await emu.settle();
    await twoBatches(emu);
    expect(copiesOf(a, bookingNumber)).toHaveLength(2);
    const after = await emu.notification(original.id);
    expect(after).toMatchObject({ state: 'cancelled', cancelReason: 'resent' });
    expect(after.attempts).toHaveLength(1);
  });

  it('keeps the original pending when asked (keepOriginal): the batch sends it as announced', async () => {
    const { emu, a } = await failingReceiver();
    const original = (await emu.event({ type: 'Issue' })).notifications[0]!;
    await emu.settle();
    const bookingNumber = (await emu.notification(original.id)).bookingNumber;
    a.setDefault(behave.status(200));
    const sent = await emu.admin<Resent>('POST', `/notifications/${original.id}/resend`, {
      keepOriginal: true,
    });
    expect(sent.body.original).toMatchObject({ id: original.id, becomes: 'kept' });
    await emu.settle();
    await twoBatches(emu);
    expect(copiesOf(a, bookingNumber)).toHaveLength(3); // failed first, the resend, the original's redelivery
    expect((await emu.notification(original.id)).state).toBe('delivered');
  });

  it('leaves a delivered or exhausted original as it is and says so', async () => {
    const { emu, a } = await failingReceiver();
    const [id] = await exhausted(emu, 1);
    a.setDefault(behave.status(200));
    const sent = await emu.admin<Resent>('POST', `/notifications/${id}/resend`, {});
    expect(sent.body.original).toMatchObject({ id, state: 'exhausted', becomes: 'unchanged' });
    await emu.settle();
    await twoBatches(emu);
    expect(
      a.requests.filter((q) => q.behaviour.kind === 'status' && q.behaviour.status === 200),
    ).toHaveLength(1);
  });

  it('warns before a resend whose booking was Voided since, and keeps the warning on the resend', async () => {
    const { emu, a } = await failingReceiver();
    a.setDefault(behave.status(200));
    const issued = await emu.event({ type: 'Issue' });
    await emu.settle();
    const id = issued.notifications[0]!.id;
    await emu.event({ type: 'Void', bookingId: issued.reservations[0]!.bookingId });
    await emu.settle();
    const preview = await emu.admin<Resent>('POST', `/notifications/${id}/resend`, { dryRun: true });
    expect(preview.body.warnings).toEqual([expect.stringContaining('is Voided now')]);
    expect(a.requests).toHaveLength(2);
    const sent = await emu.admin<Resent>('POST', `/notifications/${id}/resend`, {});
    expect(sent.body.warnings).toEqual(preview.body.warnings);
    await emu.settle();
    const resend = await emu.notification(sent.body.notifications[0]!.id);
    expect(resend.warnings).toEqual(expect.arrayContaining(preview.body.warnings)); // beside the credential's own
    expect(resend.bookingStatus).toBe('Issued');
  });
});

describe("a manual redelivery settles the booking's pending notifications", () => {
  it('cancels them for the credentials it goes to: one new copy, nothing more after two batches; keepPending keeps them', async () => {
    const { emu, a } = await failingReceiver();
    const issued = await emu.event({ type: 'Issue' });
    await emu.settle();
    const original = issued.notifications[0]!.id;
    const { bookingId } = issued.reservations[0]!;
    const bookingNumber = (await emu.notification(original)).bookingNumber;
    a.setDefault(behave.status(200));
    const redelivered = await emu.admin<T.EventResult>('POST', `/reservations/${bookingId}/redeliver`, {
      status: 'Issued',
    });
    expect(redelivered.status).toBe(202);
    expect(redelivered.body.message).toContain(`${original} stops being redelivered`);
    await emu.settle();
    await twoBatches(emu);
    expect(copiesOf(a, bookingNumber)).toHaveLength(2); // the failed first attempt and the redelivery
    expect(await emu.notification(original)).toMatchObject({ state: 'cancelled', cancelReason: 'resent' });

    a.setDefault(behave.status(503));
    const again = (
      await emu.admin<T.EventResult>('POST', `/reservations/${bookingId}/redeliver`, { status: 'Issued' })
    ).body.notifications[0]!.id;
    await emu.settle();
    a.setDefault(behave.status(200));
    const kept = await emu.admin<T.EventResult>('POST', `/reservations/${bookingId}/redeliver`, {
      status: 'Issued',
      keepPending: true,
    });
    expect(kept.body.message).not.toContain('stops being redelivered');
    await emu.settle();
    await twoBatches(emu);
    expect(await emu.notification(again)).toMatchObject({ state: 'delivered' });
    expect(copiesOf(a, bookingNumber)).toHaveLength(5);
  });
});

describe('bulk retry takes each failed delivery once', () => {
  it('a second call resends nothing and says what it skipped and why', async () => {
    const { emu, a } = await failingReceiver();
    const ids = await exhausted(emu, 3);
    const first = await bulk(emu);
    expect(first.body.resent).toHaveLength(3);
    expect(first.body.skipped).toEqual([]);
    const pendingSkip = await bulk(emu);
    expect(pendingSkip.body.resent).toEqual([]);
    expect(pendingSkip.body.skipped.map((s) => s.id)).toEqual(ids);
    for (const s of pendingSkip.body.skipped) expect(s.reason).toMatch(/^resend_(pending|in_flight)$/);
    a.setDefault(behave.status(200));
    await twoBatches(emu);
    const acked = await bulk(emu);
    expect(acked.body.resent).toEqual([]);
    expect(acked.body.skipped.map((s) => [s.id, s.reason])).toEqual(
      ids.map((id) => [id, 'resend_acknowledged']),
    );
    for (const s of acked.body.skipped) expect(s.message).toContain(s.by);
    const okCopies = a.requests.filter((q) => q.behaviour.kind === 'status' && q.behaviour.status === 200);
    expect(okCopies).toHaveLength(3);
  });

  it('5 concurrent calls resend each exhausted notification once', async () => {
    const { emu, a } = await failingReceiver();
    const ids = await exhausted(emu, 20);
    a.setDefault(behave.status(200));
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => bulk(emu)));
    expect(answers.flatMap((x) => x.body.resent)).toHaveLength(20);
    await emu.settle();
    await twoBatches(emu);
    const all = (await emu.client.listNotifications({ credentialId: 'a' })).notifications;
    for (const id of ids) expect(all.filter((n) => n.resentFrom === id)).toHaveLength(1);
    expect(
      a.requests.filter((q) => q.behaviour.kind === 'status' && q.behaviour.status === 200),
    ).toHaveLength(20);
  });

  it('a resend that failed too stands for its original: one new copy per chain', async () => {
    const { emu } = await failingReceiver();
    const [id] = await exhausted(emu, 1);
    const first = await bulk(emu);
    const resend = first.body.resent[0]!.id;
    await emu.settle();
    for (let i = 0; i < 4; i++) {
      await emu.advance({ to: 'next-batch' });
      await emu.settle();
    }
    expect((await emu.notification(resend)).state).toBe('exhausted');
    const again = await bulk(emu);
    expect(again.body.resent).toHaveLength(1);
    expect(again.body.resent[0]!.id).not.toBe(id);
    expect(again.body.skipped).toEqual([
      expect.objectContaining({ id, reason: 'resend_failed_too', by: resend }),
    ]);
    expect((await emu.notification(again.body.resent[0]!.id)).resentFrom).toBe(resend);
  });
});
