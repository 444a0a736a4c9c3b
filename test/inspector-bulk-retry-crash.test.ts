/**
 * Bulk retry is idempotent by construction (issue 43 §2): a call killed with SIGKILL while it resends,
 * then replayed after the restart (once, then three times at once), resends each exhausted
 * notification once, and the receiver gets each body once (plus only what a crash cut off: an attempt
 * the emulator cannot know was acknowledged). Real CLI, real data dir, a real receiver over HTTP.
 */
import { describe, expect, it } from 'vitest';
import type * as T from '../src/client/types.js';
import { adminOk } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { behave, receiver } from './helpers/receiver.js';

const EXHAUSTED = 600;
const post = (url: string, path: string, body: unknown) => adminOk({ url }, 'POST', path, body);
const BULK = { credentialId: 'c', since: '2026-01-01T00:00:00Z' };

/** The bulk retry, answered or cut short by the kill (then undefined). */
const bulkRetry = (url: string) =>
  fetch(`${url}/__admin/notifications/resend-failed`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(BULK),
  })
    .then(async (res) => (await res.json()) as T.ResendFailedResult)
    .catch(() => undefined);

describe('a bulk retry killed mid-call and replayed', () => {
  it('resends each exhausted notification once, however often it is replayed', async () => {
    const hook = await receiver({ defaultBehaviour: behave.status(200) });
    const emulator = DataDirServe.manual('reportbo-bulk-crash-');
    let url = await emulator.start();
    await post(url, '/credentials', { id: 'c', apiKey: 'k', url: `${hook.url}/hook` });
    // Every attempt fails inside the emulator (nothing reaches the receiver) until all are exhausted.
    await post(url, '/outages', { attempts: EXHAUSTED * 5 });
    const originals: string[] = [];
    for (let i = 0; i < EXHAUSTED; i++) {
      const event = await post(url, '/events', { type: 'Issue' });
      originals.push((event.notifications as Array<{ id: string }>)[0]!.id);
    }
    for (let i = 0; i < 4; i++) await post(url, '/clock/advance', { to: 'next-batch' });
    const settled = await adminOk({ url }, 'GET', '/notifications?state=exhausted&limit=1');
    expect(settled.total).toBe(EXHAUSTED);
    expect(hook.requests).toHaveLength(0);

    // Killed as soon as the first resend reaches the receiver: the call is still resending then.
    const first = bulkRetry(url);
    await hook.waitForRequests(1, WAIT_DEADLINE_MS);
    await emulator.kill();
    const cut = await first;
    url = await emulator.start();
    const replay = await bulkRetry(url);
    expect(replay).toBeDefined();
    for (const s of replay!.skipped ?? [])
      expect(s.reason).toMatch(/^resend_(pending|in_flight|acknowledged)$/);
    const concurrent = await Promise.all([bulkRetry(url), bulkRetry(url), bulkRetry(url)]);
    await adminOk({ url }, 'POST', '/clock/advance', { to: 'next-batch' }); // what the crash left pending
    await adminOk({ url }, 'GET', '/notifications?wait=settled&timeoutMs=60000&limit=1');
    for (const answer of concurrent) expect(answer!.resent, 'a concurrent replay').toEqual([]);

    // The resends, all delivered (an original is exhausted): fewer than a page.
    const all = (await adminOk({ url }, 'GET', '/notifications?state=delivered&limit=1000'))
      .notifications as T.Notification[];
    const byOriginal = new Map<string, T.Notification[]>();
    for (const n of all)
      if (n.resentFrom) byOriginal.set(n.resentFrom, [...(byOriginal.get(n.resentFrom) ?? []), n]);
    for (const id of originals) expect(byOriginal.get(id)?.length, id).toBe(1);
    // Each body reached the receiver once, or more only by an attempt the crash cut off.
    const copies = new Map<string, number>();
    for (const q of hook.requests) {
      const bn = JSON.parse(q.body).Reservation.BookingNumber as string;
      copies.set(bn, (copies.get(bn) ?? 0) + 1);
    }
    for (const id of originals) {
      const resend = byOriginal.get(id)![0]!;
      const detail = (await adminOk(
        { url },
        'GET',
        `/notifications/${resend.id}`,
      )) as unknown as T.Notification;
      expect(detail.state).toBe('delivered');
      const cutOff = detail.attempts.filter((a) => a.outcome === 'interrupted_by_crash').length;
      expect(copies.get(resend.bookingNumber), resend.id).toBeGreaterThanOrEqual(1);
      expect(copies.get(resend.bookingNumber), resend.id).toBeLessThanOrEqual(1 + cutOff);
    }
    console.log(
      `bulk retry of ${EXHAUSTED}: the first call ${cut ? `answered (${cut.resent.length} resent) before the kill` : 'was cut by the kill'}; the replay resent ${replay!.resent.length} and skipped ${replay!.skipped?.length}`,
    );
    expect(await emulator.stop()).toBe(0);
  });
});
