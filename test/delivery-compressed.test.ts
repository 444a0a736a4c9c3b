import { describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { serveCli } from './helpers/processes.js';
import { behave, receiver } from './helpers/receiver.js';

const HOUR_MS = 3_600_000;

describe('redelivery on a compressed clock', () => {
  it('runs a full five-attempt cycle with hourMs 4000, the redeliveries one emulator hour apart', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({
      allowHttp: true,
      clock: 'compressed',
      hourMs: 4_000,
      // 55 emulator minutes (~3.7 s real) before the first batch: the first attempt must have ended
      // before it (830 ms were too few on a loaded machine, 1.8 s with four test files at a time).
      clockStart: '2026-04-27T10:00:00Z',
    });
    await emu.credential({ apiKey: 'k', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    await r.waitForRequests(5, WAIT_DEADLINE_MS);
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
    // The attempts came in order, one after the other (their spacing is the emulator's hours above;
    // how long that took in real time is the machine's business and npm run bench's).
    const walls = n.attempts.map((a) => Date.parse(a.startedAtWall));
    expect(walls).toEqual([...walls].sort((a, b) => a - b));
  });
});

describe('batches on a compressed clock with a hanging receiver', () => {
  it('runs or records as skipped, with its reason, every batch instant (hourMs 500, timeout 2 s)', async () => {
    const r = await receiver({ defaultBehaviour: behave.hang() });
    const emu = await deliveryEmulator({
      allowHttp: true,
      clock: 'compressed',
      hourMs: 500,
      // 2 s real = 4 emulator hours: a batch waiting on the hanging receiver outlasts three instants.
      responseTimeoutMs: 2_000,
      clockStart: '2026-04-27T10:50:00Z',
    });
    await emu.credential({ apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    type Batch = { at: string; attempted: number; skipped?: boolean; reason?: string };
    const batches = async () =>
      (await emu.admin<{ batches: Batch[] }>('GET', '/redelivery/batches')).body.batches;
    // Until a batch that attempted (and hung) was followed by skipped instants and a batch ran again.
    await expect
      .poll(
        async () => {
          const list = await batches();
          const firstSkip = list.findIndex((b) => b.skipped);
          return firstSkip > 0 && list.slice(firstSkip).some((b) => !b.skipped);
        },
        { timeout: WAIT_DEADLINE_MS, interval: 200 },
      )
      .toBe(true);
    const list = await batches();
    const instants = list.map((b) => Date.parse(b.at));
    expect(list[0]!.at).toBe('2026-04-27T10:55:00.000Z');
    // One entry per emulator hour, none missing, none doubled.
    expect(instants).toEqual(instants.map((_, i) => instants[0]! + i * HOUR_MS));
    const skipped = list.filter((b) => b.skipped);
    expect(skipped.length).toBeGreaterThanOrEqual(1);
    for (const s of skipped) {
      expect(s.reason).toMatch(
        /^previous batch still running: the batch of .* took \d+ real ms = .* of emulator time/,
      );
    }
  });

  it('warns at start when the response timeout spans more than a few emulator minutes', async () => {
    const { started } = await serveCli(['--clock', 'compressed', '--hour-ms', '500']);
    started.child.kill('SIGTERM');
    const warning = started
      .output()
      .split('\n')
      .find((l) => l.includes('response timeout'));
    expect(warning).toMatch(/warn|"level":40/i);
    expect(warning).toContain(
      'the response timeout (30000 ms) is real time and does not scale with the compressed clock: at hourMs 500 it spans 60 h of emulator time',
    );
  });
});
