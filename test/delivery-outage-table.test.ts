import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLOCK_START, deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

/**
 * docs/delivery.md "How long can a receiver be down?" read as data: each row is driven through the
 * real engine (manual clock, a real loopback receiver, an outage window), so the table cannot drift
 * from the schedule.
 */
interface Row {
  eventMinute: number;
  /** Attempt instants as hour offsets and minutes from the event's hour. */
  attempts: Array<[number, number]>;
  lostThrough: [number, number];
  shortestLossMinutes: number;
}

const HOUR_MS = 3_600_000;
const MINUTE_MS = 60_000;

function hourMinute(text: string): [number, number] {
  const m = /^h(?:\+(\d+))?:(\d\d)$/.exec(text.trim());
  if (!m) throw new Error(`not an h+N:MM cell: "${text}"`);
  return [Number(m[1] ?? 0), Number(m[2])];
}

function readTable(): Row[] {
  const doc = readFileSync(new URL('../docs/delivery.md', import.meta.url), 'utf8');
  const section = doc.split('### How long can a receiver be down?')[1]?.split('\n#')[0];
  if (!section) throw new Error('docs/delivery.md has no "How long can a receiver be down?" section');
  return section
    .split('\n')
    .filter((line) => /^\| h:\d\d /.test(line))
    .map((line) => {
      const [event, attempts, lost, shortest] = line
        .split('|')
        .slice(1, 5)
        .map((c) => c.trim()) as [string, string, string, string];
      const d = /^(\d+) h (\d+) min$/.exec(shortest);
      if (!d) throw new Error(`not an "N h M min" cell: "${shortest}"`);
      return {
        eventMinute: hourMinute(event)[1],
        attempts: attempts.split(',').map(hourMinute),
        lostThrough: hourMinute(lost),
        shortestLossMinutes: Number(d[1]) * 60 + Number(d[2]),
      };
    });
}

const rows = readTable();
const hourStart = Date.parse(CLOCK_START);
const at = ([h, m]: [number, number]) => new Date(hourStart + h * HOUR_MS + m * MINUTE_MS).toISOString();

describe('docs/delivery.md: how long a receiver can be down, checked on the engine', () => {
  it('has rows on both sides of minute 55', () => {
    expect(rows.length).toBeGreaterThanOrEqual(4);
    expect(rows.some((r) => r.eventMinute < 55)).toBe(true);
    expect(rows.some((r) => r.eventMinute >= 55)).toBe(true);
  });

  for (const row of rows) {
    const event = at([0, row.eventMinute]);
    const lastBatch = at(row.lostThrough);

    it(`event at minute ${row.eventMinute}: attempts at the listed instants; an outage through ${row.lostThrough.join(':')} loses it, one ending just before is survived`, async () => {
      const r = await receiver();
      const emu = await deliveryEmulator({ allowHttp: true });
      await emu.credential({ id: 'lost', apiKey: 'k1', url: `${r.url}/lost` });
      await emu.credential({ id: 'saved', apiKey: 'k2', url: `${r.url}/saved` });
      if (row.eventMinute > 0) await emu.advance({ to: event });
      // Down from the event through the last batch (until is exclusive) vs. back exactly at it.
      const covering = await emu.admin('POST', '/outages', {
        credentialId: 'lost',
        until: new Date(Date.parse(lastBatch) + 1).toISOString(),
      });
      const ending = await emu.admin('POST', '/outages', { credentialId: 'saved', until: lastBatch });
      expect([covering.status, ending.status]).toEqual([201, 201]);
      const result = await emu.event({ type: 'Issue' });
      await emu.settle();
      await emu.advance({ by: 'PT6H' });
      const [lost, saved] = await Promise.all(result.notifications.map((n) => emu.notification(n.id)));

      expect(lost!.attempts.map((a) => a.startedAt)).toEqual(row.attempts.map(at));
      expect(lost!.state).toBe('exhausted');
      expect(lost!.attempts.every((a) => a.outcome === 'simulated_outage')).toBe(true);
      expect(saved!.attempts.map((a) => a.startedAt)).toEqual(row.attempts.map(at));
      expect(saved!.state).toBe('delivered');
      expect(saved!.deliveredAt).toBe(lastBatch);
      // The receiver saw only the one request that succeeded.
      expect(r.requests.map((q) => q.path)).toEqual(['/saved']);
      expect((Date.parse(lastBatch) - Date.parse(event)) / MINUTE_MS).toBe(row.shortestLossMinutes);
    });
  }
});
