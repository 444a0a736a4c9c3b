import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../emulator.js';
import { catchUpBatches } from './crash-repair.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

describe('the batch instants a restart finds passed (catchUpBatches)', () => {
  it('runs the latest, records the earlier ones as skipped with the reason, and does nothing when none passed', async () => {
    emulator = createEmulator({ clock: 'manual', logLevel: 'silent', allowHttp: true, seed: 7 });
    await emulator.ready;
    const { outbox } = emulator.delivery;
    const from = Date.parse('2026-01-01T10:00:00.000Z');
    const now = Date.parse('2026-01-01T12:58:00.000Z');
    expect(catchUpBatches(outbox, from, now)).toEqual({ latest: '2026-01-01T12:55:00.000Z', missed: 3 });
    await new Promise((r) => setImmediate(r));
    const batches = outbox.batches();
    expect(batches.map((b) => b.at)).toEqual([
      '2026-01-01T10:55:00.000Z',
      '2026-01-01T11:55:00.000Z',
      '2026-01-01T12:55:00.000Z',
    ]);
    expect(batches[0]!.reason).toMatch(
      /^the emulator was not running at this instant \(its data dir's last record before it is at 2026-01-01T10:00:00\.000Z, restarted at 2026-01-01T12:58:00\.000Z emulator time\); the catch-up batch of 2026-01-01T12:55:00\.000Z retried what was due$/,
    );
    expect(batches[2]!.reason).toBeUndefined();
    expect(catchUpBatches(outbox, now, now + 60_000)).toBeUndefined();
    expect(outbox.batches()).toHaveLength(3);
  });
});
