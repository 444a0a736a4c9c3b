import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

describe('notification delivery: the 200 rule', () => {
  it('marks a notification delivered after one attempt when the receiver answers 200', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('delivered');
    expect(n.attempts).toHaveLength(1);
    await emu.advance({ by: 'PT5H' });
    expect(r.requests).toHaveLength(1);
  });

  // Spec "1. Notification delivery (outbound from the service)" rule 2: any other status, other 2xx and 3xx
  // included, is a failure.
  it.each([201, 202, 204, 301, 302, 307, 400, 401, 404, 429, 500, 503])(
    'treats status %i as a failure and leaves the notification pending',
    async (status) => {
      const r = await receiver({
        defaultBehaviour:
          status >= 300 && status < 400
            ? behave.redirect('http://127.0.0.1:9/x', status as 301)
            : behave.status(status),
      });
      const emu = await deliveryEmulator({ allowHttp: true });
      await emu.credential({ apiKey: 'k', url: r.url });
      const result = await emu.event({ type: 'Issue' });
      await emu.settle();
      const n = await emu.notification(result.notifications[0]!.id);
      expect(n.state).toBe('pending');
      expect(n.attempts).toHaveLength(1);
      expect(n.attempts[0]).toMatchObject({ outcome: 'http_status', statusCode: status });
      expect(n.attempts[0]!.message).toContain('only 200 acknowledges');
    },
  );

  it('never follows a redirect: its target receives nothing', async () => {
    const target = await receiver();
    const r = await receiver({ defaultBehaviour: behave.redirect(`${target.url}/new-home`, 307) });
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ by: 'PT5H' });
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('exhausted');
    expect(n.attempts.map((a) => a.statusCode)).toEqual([307, 307, 307, 307, 307]);
    expect(n.attempts[0]!.message).toContain(`redirect to ${target.url}/new-home not followed`);
    expect(r.requests).toHaveLength(5);
    expect(target.requests).toHaveLength(0);
  });
});
