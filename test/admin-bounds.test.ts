import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock/manual.js';
import type { Sender } from '../src/delivery/sender.js';
import { CLOCK_START, deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

interface Problem {
  error: { code: string; message: string };
}

describe('instants and durations in admin bodies are bounded before anything is stored (issue 31 §1)', () => {
  it.each([
    ['an ISO duration of 99,999,999 days', { for: 'P99999999D' }, 'for'],
    ['2^64 milliseconds', { for: 2 ** 64 }, 'for'],
    ['a window start past year 9999', { from: '+275760-09-13T00:00:00Z' }, 'from'],
    ['a window end before 1970', { until: '1969-12-31T00:00:00Z' }, 'until'],
  ])(
    'an outage of %s is a 400 naming the field and the range; GET /outages and deliveries still work',
    async (_, body, field) => {
      const hook = await receiver();
      const emu = await deliveryEmulator({ allowHttp: true });
      await emu.credential({ id: 'c', apiKey: 'k', url: hook.url });
      const refused = await emu.admin<Problem>('POST', '/outages', body);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      expect(refused.body.error.message).toContain(field);
      expect(refused.body.error.message).toMatch(/P366D|9999-12-31T23:59:59\.999Z/);
      const listed = await emu.admin<{ outages: unknown[] }>('GET', '/outages');
      expect(listed.status).toBe(200);
      expect(listed.body.outages).toEqual([]);
      const event = await emu.event({ type: 'Issue' });
      await emu.settle();
      expect((await emu.notification(event.notifications[0]!.id)).state).toBe('delivered');
    },
  );

  it('an outage window whose end would pass the latest instant is refused, not stored', async () => {
    const emu = await deliveryEmulator({ clockStart: '9999-12-31T00:00:00Z' });
    const refused = await emu.admin<Problem>('POST', '/outages', { for: 'P2D' });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toMatch(/for: .*9999-12-31T23:59:59\.999Z/);
    expect((await emu.admin<{ outages: unknown[] }>('GET', '/outages')).body.outages).toEqual([]);
  });

  it('a clock advance to year 9999 or by more than P366D is a 400 naming the bound; P366D is accepted', async () => {
    const emu = await deliveryEmulator();
    const far = await emu.admin<Problem>('POST', '/clock/advance', { to: '9999-12-31T00:00:00Z' });
    expect(far.status, JSON.stringify(far.body)).toBe(400);
    expect(far.body.error.code).toBe('advance_too_far');
    expect(far.body.error.message).toContain('P366D');
    const long = await emu.admin<Problem>('POST', '/clock/advance', { by: 'P367D' });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toMatch(/by: .*P366D/);
    const huge = await emu.admin<Problem>('POST', '/clock/advance', { by: 2 ** 64 });
    expect(huge.status).toBe(400);
    expect((await emu.admin<{ now: string }>('GET', '/clock')).body.now).toBe(
      new Date(CLOCK_START).toISOString(),
    );
    const year = await emu.advance({ by: 'P366D' });
    expect(year.batches).toHaveLength(366 * 24);
  });
});

describe('a long manual advance keeps the event loop answering (issue 31 §1)', () => {
  it('a timer set while 30 days of batches run fires before the advance ends', async () => {
    const clock = new ManualClock(new Date(CLOCK_START));
    let batches = 0;
    clock.onBatch(async () => {
      batches++;
    });
    let ended = false;
    const advancing = clock.advance({ byMs: 30 * 86_400_000 }).then(() => {
      ended = true;
    });
    const firedDuring = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!ended), 0));
    await advancing;
    expect(firedDuring).toBe(true);
    expect(batches).toBe(30 * 24);
  });
});

describe('an error inside a background attempt never escapes the outbox (issue 31 §1)', () => {
  it('a sender that throws ends the attempt as data (emulator_error, not counted) and the notification stays pending', async () => {
    const throwing: Sender = {
      send() {
        throw new Error('sender broke');
      },
      close() {},
    };
    const emu = await deliveryEmulator({ allowHttp: true }, {}, { sender: throwing });
    await emu.credential({ id: 'c', apiKey: 'k', url: 'http://127.0.0.1:9/hook' });
    const event = await emu.event({ type: 'Issue' });
    await emu.settle();
    const n = await emu.notification(event.notifications[0]!.id);
    expect(n.state).toBe('pending');
    expect(n.attempts).toEqual([
      expect.objectContaining({
        number: 1,
        outcome: 'emulator_error',
        message: expect.stringContaining('sender broke'),
      }),
    ]);
    expect((await emu.admin('GET', '/health')).status).toBe(200);
  });
});
