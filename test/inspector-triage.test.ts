/**
 * Failures grouped by cause (issue 41 §2, decision 0202): three causes across two credentials, each
 * group with its count, first and last seen and a sample; retrying one group sends exactly that
 * group's notifications to the real receivers, and the group is gone once they are delivered.
 */
import { describe, expect, it } from 'vitest';
import type * as T from '../src/client/types.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { freePort } from './helpers/ports.js';
import { behave, receiver } from './helpers/receiver.js';

describe('GET /__admin/triage and POST /__admin/triage/retry', () => {
  it('groups three causes across two credentials and retries exactly one group', async () => {
    // Credential a: a receiver that answers 503 with a JSON reason, then 500 with a page; b: nothing listens.
    const a = await receiver({ defaultBehaviour: behave.status(200) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url, filters: { pcc: ['AAA'] } });
    await emu.credential({
      id: 'b',
      apiKey: 'k-b',
      url: `http://127.0.0.1:${await freePort()}/hook`,
      filters: { pcc: ['BBB'] },
    });
    const issue = async (pcc: string) =>
      (await emu.event({ type: 'Issue', overrides: { Reservation: { PCCBook: pcc, PCCIssue: pcc } } }))
        .notifications[0]!.id;
    const busy = (retryIn: number) => behave.status(503, `{"error":"busy", "retryIn": ${retryIn}}`);
    a.enqueue(busy(120), busy(30), busy(7));
    const busyIds = [await issue('AAA'), await issue('AAA'), await issue('AAA')];
    await emu.settle();
    a.enqueue(behave.status(500, '<html>Internal error 12345</html>'));
    const brokenId = await issue('AAA');
    await emu.settle();
    const refusedIds = [await issue('BBB'), await issue('BBB')];
    await emu.settle();
    const okId = await issue('AAA'); // delivered: in no group
    await emu.settle();

    const triage = (await emu.admin<T.Triage>('GET', '/triage')).body;
    expect(triage.failing).toBe(6);
    expect(triage.groups.map((g) => [g.key, g.count, g.ids])).toEqual([
      ['a|HTTP 503 {"error":"busy", "retryIn": #}', 3, busyIds],
      ['b|connect_refused', 2, refusedIds],
      ['a|HTTP 500 <html>Internal error #</html>', 1, [brokenId]],
    ]);
    const [busyGroup] = triage.groups;
    expect(busyGroup).toMatchObject({
      credentialId: 'a',
      cause: { outcome: 'http_status', statusCode: 503, answer: '{"error":"busy", "retryIn": #}' },
      pending: 3,
      exhausted: 0,
      sample: busyIds[2],
    });
    expect(busyGroup!.firstSeen <= busyGroup!.lastSeen).toBe(true);
    expect(triage.groups.flatMap((g) => g.ids)).not.toContain(okId);

    // Retry the busy group: exactly its three notifications reach the receiver again.
    const before = a.requests.length;
    const counted = await emu.admin<T.ResendFailedResult>('POST', '/triage/retry', {
      key: busyGroup!.key,
      dryRun: true,
    });
    expect(counted.body).toMatchObject({ count: 3, ids: busyIds, dryRun: true });
    expect(a.requests).toHaveLength(before);
    const retried = await emu.admin<T.ResendFailedResult>('POST', '/triage/retry', { key: busyGroup!.key });
    expect(retried.status).toBe(200);
    expect(retried.body.retried).toEqual(busyIds);
    await emu.settle();
    const again = a.requests.slice(before).map((q) => JSON.parse(q.body).Reservation.BookingNumber);
    const expected = await Promise.all(busyIds.map(async (id) => (await emu.notification(id)).bookingNumber));
    expect(again.sort()).toEqual(expected.sort());
    for (const id of busyIds) expect((await emu.notification(id)).state).toBe('delivered');

    const after = (await emu.admin<T.Triage>('GET', '/triage')).body;
    expect(after.groups.map((g) => g.key)).toEqual([
      'b|connect_refused',
      'a|HTTP 500 <html>Internal error #</html>',
    ]);
    const gone = await emu.admin<{ error: { code: string } }>('POST', '/triage/retry', {
      key: busyGroup!.key,
    });
    expect(gone.status).toBe(404);
    expect(gone.body.error.code).toBe('triage_group_not_found');
  });
});
