import { describe, expect, it } from 'vitest';
import { activityLine } from '../src/activity/log-lines.js';
import { adminApp } from '../src/admin/index.js';
import { STREAM_CLIENT_BUFFER_BYTES } from '../src/admin/stream.js';
import { createEmulator } from '../src/emulator.js';
import { silentLogger } from '../src/log.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';
import { openStream } from './helpers/stream.js';
import { testCa } from './helpers/tls.js';

describe('GET /__admin/stream (Server-Sent Events)', () => {
  it('says hello with the clock, then streams admin changes, the event, the notification and its attempt', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    const stream = await openStream(`${emu.url}/__admin/stream`);
    expect(stream.res.status).toBe(200);
    expect(stream.res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const hello = await stream.next((e) => e.event === 'hello');
    expect(hello.data).toMatchObject({ clock: { mode: 'manual', now: '2026-04-27T10:00:00.000Z' } });

    await emu.credential({ id: 'live', apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    const id = result.notifications[0]!.id;

    const admin = await stream.next((e) => e.event === 'admin');
    expect(admin.data).toMatchObject({ kind: 'admin', change: 'credential_added', subject: 'live' });
    const created = await stream.next((e) => e.event === 'notification_created');
    expect(created.data).toMatchObject({ notification: { id, credentialId: 'live', state: 'pending' } });
    const event = await stream.next((e) => e.event === 'event');
    expect(event.data).toMatchObject({
      event: 'Issue',
      notifications: [id],
      routedTo: 1,
      reservations: [{ bookingId: result.reservations[0]!.bookingId, status: 'Issued' }],
    });
    const started = await stream.next((e) => e.event === 'attempt_started');
    expect(started.data).toMatchObject({
      notification: { id, state: 'pending', attemptCount: 0, inFlight: true },
      attempt: { number: 1, trigger: 'first', startedAt: '2026-04-27T10:00:00.000Z' },
    });
    const attempt = await stream.next((e) => e.event === 'attempt');
    expect(attempt.data).toMatchObject({
      notification: { id, state: 'delivered', attemptCount: 1, lastAttempt: { statusCode: 200 } },
      attempt: { number: 1, trigger: 'first', outcome: 'http_status', statusCode: 200 },
    });
    stream.close();
  });

  it('streams the notifications the retention setting drops, with the count dropped so far', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, notificationRetention: 1 });
    await emu.credential({ id: 'live', apiKey: 'k', url: r.url });
    const stream = await openStream(`${emu.url}/__admin/stream`);
    await stream.next((e) => e.event === 'hello');
    const first = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    await emu.event({ type: 'Issue' });
    const dropped = await stream.next((e) => e.event === 'notifications_dropped');
    expect(dropped.data).toEqual({ kind: 'notifications_dropped', ids: [first], dropped: 1 });
    stream.close();
  });

  it('streams the batch a clock move runs, the clock move itself and each GetAccessToken call', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const stream = await openStream(`${emu.url}/__admin/stream`);
    await stream.next((e) => e.event === 'hello');
    await emu.advance({ to: 'next-batch' });
    const batch = await stream.next((e) => e.event === 'batch');
    expect(batch.data).toMatchObject({
      batch: { at: '2026-04-27T10:55:00.000Z', attempted: 1, delivered: 0, failed: 1, exhausted: 0 },
    });
    const clock = await stream.next((e) => e.event === 'clock');
    expect(clock.data).toMatchObject({
      from: '2026-04-27T10:00:00.000Z',
      to: '2026-04-27T10:55:00.000Z',
      batches: ['2026-04-27T10:55:00.000Z'],
    });
    const token = await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'nobody', Password: 'x' }),
    });
    expect(token.status).toBe(200);
    const call = await stream.next((e) => e.event === 'token');
    expect(call.data).toMatchObject({
      entry: { version: '1.7', variant: 'json', username: 'nobody', transactionCode: '1200' },
    });
    stream.close();
  });

  it('streams ca_trusted when a CA is trusted and ca_untrusted when DELETE /trust/:fingerprint removes it', async () => {
    const emu = await deliveryEmulator();
    const stream = await openStream(`${emu.url}/__admin/stream`);
    await stream.next((e) => e.event === 'hello');
    const added = await emu.admin<{ added: Array<{ subject: string; fingerprint256: string }> }>(
      'POST',
      '/trust',
      { pem: testCa().certPem },
    );
    expect(added.status).toBe(201);
    const { subject, fingerprint256 } = added.body.added[0]!;
    const trusted = await stream.next((e) => e.event === 'admin' && e.data.change === 'ca_trusted');
    expect(trusted.data).toEqual({ kind: 'admin', change: 'ca_trusted', subject });
    expect((await emu.admin('DELETE', `/trust/${fingerprint256}`)).status).toBe(204);
    const untrusted = await stream.next((e) => e.event === 'admin' && e.data.change === 'ca_untrusted');
    expect(untrusted.data).toEqual({ kind: 'admin', change: 'ca_untrusted', subject });
    // The info log's line for it (the same line the pretty and JSON formats print).
    expect(activityLine(untrusted.data as never)?.msg).toBe(`ca untrusted ${subject}`);
    // An unknown fingerprint removes nothing and announces nothing.
    expect((await emu.admin('DELETE', `/trust/${fingerprint256}`)).status).toBe(404);
    await emu.admin('POST', '/users', { username: 'after', password: 'p', idWeb: 1, webDescription: 'x' });
    await stream.next((e) => e.event === 'admin' && e.data.change === 'user_added');
    expect(stream.events.filter((e) => e.data.change === 'ca_untrusted')).toHaveLength(1);
    stream.close();
  });

  it('stops listening when the client goes away: nothing is kept for it', async () => {
    const emu = await deliveryEmulator();
    const { activity } = emu.server.emulator;
    expect(activity.listenerCount).toBe(0);
    const stream = await openStream(`${emu.url}/__admin/stream`);
    await stream.next((e) => e.event === 'hello');
    expect(activity.listenerCount).toBe(1);
    stream.close();
    // The server notices the closed connection on its own schedule: wait for it, not for a time.
    await expect.poll(() => activity.listenerCount, { timeout: WAIT_DEADLINE_MS }).toBe(0);
  });
});

describe('POST /__admin/notifications/:id/retry (retry now)', () => {
  it('makes one attempt at once, outside the batch schedule, recorded with trigger "manual"', async () => {
    const r = await receiver();
    r.enqueue(behave.status(500));
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    const retried = await emu.admin<{
      attempt: { number: number; trigger: string; statusCode: number; startedAt: string };
      notification: { state: string; attemptCount: number };
    }>('POST', `/notifications/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(retried.body.attempt).toMatchObject({
      number: 2,
      trigger: 'manual',
      statusCode: 200,
      startedAt: '2026-04-27T10:00:00.000Z', // the clock did not move: no batch ran
    });
    expect(retried.body.notification).toMatchObject({ state: 'delivered', attemptCount: 2 });
    const n = await emu.notification(id);
    expect(n.attempts.map((a) => [a.trigger, a.batchAt])).toEqual([
      ['first', undefined],
      ['manual', undefined],
    ]);
    expect(r.requests).toHaveLength(2);
  });

  it('counts toward the 5 attempts: the fifth failure exhausts the notification, and a sixth is refused', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    for (let i = 2; i <= 5; i++) {
      const retried = await emu.admin<{ attempt: { number: number } }>('POST', `/notifications/${id}/retry`);
      expect(retried.status).toBe(200);
      expect(retried.body.attempt.number).toBe(i);
    }
    const n = await emu.notification(id);
    expect(n.state).toBe('exhausted');
    const refused = await emu.admin<{ error: { code: string; message: string } }>(
      'POST',
      `/notifications/${id}/retry`,
    );
    expect(refused.status).toBe(409);
    expect(refused.body.error.code).toBe('notification_not_pending');
    expect(refused.body.error.message).toContain(`/reservations/${n.bookingId}/redeliver`);
    expect(r.requests).toHaveLength(5);
  });

  it('answers 404 for an unknown notification', async () => {
    const emu = await deliveryEmulator();
    const answer = await emu.admin<{ error: { code: string } }>('POST', '/notifications/n-999999/retry');
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('notification_not_found');
  });
});

describe('a client that falls behind', () => {
  it('is dropped once more than STREAM_CLIENT_BUFFER_BYTES of events wait for it, and the emulator lets go of it', async () => {
    const logged: string[] = [];
    const logger = silentLogger();
    logger.warn = ((_fields: unknown, msg: string) => void logged.push(msg)) as typeof logger.warn;
    const emulator = createEmulator({ clock: 'manual' }, { logger });
    const res = await adminApp(emulator).request('/stream');
    // Nobody reads: the stream holds the first write, and everything published now waits.
    await expect.poll(() => emulator.activity.listenerCount).toBe(1);
    const subject = 'u'.repeat(1000);
    const frame = Buffer.byteLength(
      `event: admin\ndata: ${JSON.stringify({ kind: 'admin', change: 'user_added', subject })}\n\n`,
    );
    const fit = Math.floor(STREAM_CLIENT_BUFFER_BYTES / frame);
    for (let i = 0; i < fit; i++) emulator.activity.publish({ kind: 'admin', change: 'user_added', subject });
    expect(logged).toEqual([]);
    expect(emulator.activity.listenerCount).toBe(1);
    emulator.activity.publish({ kind: 'admin', change: 'user_added', subject });
    expect(logged).toEqual([expect.stringContaining('live stream client dropped')]);
    // Unsubscribed at once: nothing more is held for it, and the bus builds no activities for nobody.
    expect(emulator.activity.listenerCount).toBe(0);
    expect(emulator.activity.active).toBe(false);
    // What it reads now ends: a browser's EventSource reconnects and its hello reloads the lists.
    const reader = res.body!.getReader();
    let text = '';
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    expect(text.length).toBeLessThan(STREAM_CLIENT_BUFFER_BYTES);
  });
});
