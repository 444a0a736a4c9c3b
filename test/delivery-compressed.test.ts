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
    const started = n.attempts.map((a) => Date.parse(a.startedAt));
    for (let i = 2; i < started.length; i++) {
      // Emulator time keeps running during a batch, so allow a few emulator minutes of slack.
      expect(Math.abs(started[i]! - started[i - 1]! - HOUR_MS)).toBeLessThan(5 * 60_000);
    }
    const real = Date.parse(n.attempts[4]!.startedAtWall) - Date.parse(n.attempts[0]!.startedAtWall);
    expect(real).toBeGreaterThan(4_000);
    expect(real).toBeLessThan(20_000);
  }, 30_000);
});
