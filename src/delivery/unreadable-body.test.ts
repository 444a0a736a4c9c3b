import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../clock/index.js';
import { BodyFile, packBody } from '../contract/index.js';
import { generateNotification } from '../generate/index.js';
import { silentLogger } from '../log.js';
import { startReceiver } from '../receivers/index.js';
import { DeliveryService } from './service.js';

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const undo of cleanup.splice(0).reverse()) await undo();
});

describe('a body the emulator cannot read back', () => {
  it('ends its attempt as data (emulator_error, with the reason), never sent and never thrown', async () => {
    const receiver = await startReceiver();
    cleanup.push(() => receiver.close());
    const dir = mkdtempSync(join(tmpdir(), 'unreadable-body-'));
    cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
    const file = new BodyFile(dir);
    const clock = new ManualClock(new Date('2026-04-27T10:00:00Z'));
    const delivery = new DeliveryService(
      { responseTimeoutMs: 5_000, allowHttp: true, deliveryConcurrency: 4 },
      { clock, log: silentLogger() },
    );
    cleanup.push(() => delivery.close());
    delivery.credentials.add({ id: 'c', apiKey: 'k', url: `${receiver.url}/hook` });
    // Enough bodies that the first is in the file, not in the slab still in memory; then the file goes.
    const bodies = Array.from(
      { length: 120 },
      (_, i) => generateNotification({ event: 'Issue', seed: i + 1, at: '2026-04-27T10:00:00Z' }).target,
    );
    const packed = bodies.map((body) => packBody(body, file));
    file.close();
    const [body, gz] = [bodies[0], packed[0]] as const;
    if (!body || !gz) throw new Error('no body');
    const routed = delivery.dispatch([{ bookingId: body.Reservation.BookingID, body, gz }]);
    const id = routed.notifications[0]?.id as string;
    expect(await delivery.outbox.waitSettled({}, 10_000)).toBe(true);
    const n = delivery.outbox.get(id);
    expect(n?.state).toBe('pending');
    expect(n?.attempts).toHaveLength(1);
    expect(n?.attempts[0]?.outcome).toBe('emulator_error');
    expect(n?.attempts[0]?.message).toMatch(
      /^the emulator failed while making this attempt \(the body \(\d+ bytes at 0 of the emulator's body file\) could not be read back: the body file was closed\)/,
    );
    expect(receiver.requests).toHaveLength(0);
  });
});
