/**
 * A resend of a notification whose attempt is in flight cancels the original when that attempt ends
 * undelivered (decision 0200). The emulator killed with SIGKILL before it ends finds, on the restart,
 * the attempt cut off and the original cancelled, not pending: the next batches send no copy nobody
 * asked for (decision 0224). Real CLI, real data dir, a real receiver over HTTP.
 */
import { describe, expect, it } from 'vitest';
import type * as T from '../src/client/types.js';
import { adminOk } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { behave, receiver } from './helpers/receiver.js';

const call = (url: string, method: string, path: string, body?: unknown) =>
  adminOk<Record<string, unknown>>({ url }, method, path, body);

describe('a resend of an original in flight, then kill -9', () => {
  it('keeps the cancel across the crash: after two batches only the copies announced reached the receiver', async () => {
    const hook = await receiver({ defaultBehaviour: behave.status(200) });
    hook.enqueue(behave.hang()); // the original's first attempt never ends
    const emulator = DataDirServe.manual('reportbo-resend-crash-');
    let url = await emulator.start();
    await call(url, 'POST', '/credentials', { id: 'c', apiKey: 'k', url: `${hook.url}/hook` });
    const event = await call(url, 'POST', '/events', { type: 'Issue' });
    const original = (event.notifications as Array<{ id: string }>)[0]!.id;
    await hook.waitForRequests(1, WAIT_DEADLINE_MS);

    const sent = (await call(
      url,
      'POST',
      `/notifications/${original}/resend`,
      {},
    )) as unknown as T.ResendResult;
    expect(sent.original).toMatchObject({ id: original, becomes: 'cancelled_when_attempt_ends' });
    const resend = sent.notifications[0]!.id;
    await expect // the resend acknowledged and recorded (the original's attempt still hangs)
      .poll(async () => ((await call(url, 'GET', `/notifications/${resend}`)) as { state: string }).state, {
        timeout: WAIT_DEADLINE_MS,
      })
      .toBe('delivered');

    await emulator.kill(); // the original's attempt still hangs
    url = await emulator.start();
    const after = (await call(url, 'GET', `/notifications/${original}`)) as unknown as T.Notification;
    expect(after).toMatchObject({ state: 'cancelled', cancelReason: 'resent' });
    expect(after.attempts.map((a) => a.outcome)).toEqual(['interrupted_by_crash']);
    for (let i = 0; i < 2; i++) await call(url, 'POST', '/clock/advance', { to: 'next-batch' });
    await call(url, 'GET', '/notifications?wait=settled&timeoutMs=60000');
    expect(hook.requests).toHaveLength(2); // the hung first attempt and the resend: nothing more
    await emulator.stop();
  });
});
