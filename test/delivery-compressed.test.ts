import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

const HOUR_MS = 3_600_000;

describe('redelivery on a compressed clock', () => {
  it('runs a full five-attempt cycle with hourMs 2000, the redeliveries one emulator hour apart', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({
      allowHttp: true,
      clock: 'compressed',
      hourMs: 2_000,
      // 25 emulator minutes (~830 ms real) before the first batch: room for the first requests.
      clockStart: '2026-04-27T10:30:00Z',
    });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await r.waitForRequests(5, 20_000);
    await emu.settle();
    const n = await emu.notification(result.notifications[0]!.id);
    expect(n.state).toBe('exhausted');
    expect(n.attempts.map((a) => a.batchAt)).toEqual([
      undefined,
      '2026-04-27T10:55:00.000Z',
      '2026-04-27T11:55:00.000Z',
      '2026-04-27T12:55:00.000Z',
      '2026-04-27T13:55:00.000Z',
    ]);
    // Each redelivery starts in its own batch: at or after minute 55 of its hour, before the next
    // batch. (How far after depends on the machine's load, so no tighter bound is asserted.)
    for (const a of n.attempts.slice(1)) {
      const started = Date.parse(a.startedAt);
      expect(started).toBeGreaterThanOrEqual(Date.parse(a.batchAt!));
      expect(started).toBeLessThan(Date.parse(a.batchAt!) + HOUR_MS);
    }
    // Four compressed hours lie between the first attempt and the last: at least 4 × hourMs of real
    // time. No upper bound: a busy machine may take longer, and durations belong in npm run bench.
    const real = Date.parse(n.attempts[4]!.startedAtWall) - Date.parse(n.attempts[0]!.startedAtWall);
    expect(real).toBeGreaterThan(4_000);
  }, 30_000);
});
