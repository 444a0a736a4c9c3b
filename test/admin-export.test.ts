import { describe, expect, it } from 'vitest';
import { AdminClient } from '../src/client/index.js';
import type { RunningEmulator } from '../src/server.js';
import { CLOCK_START } from './helpers/clock.js';
import { serve } from './helpers/data-dir.js';
import { watchLoop } from './helpers/loop-watch.js';
import { addNotifications } from './helpers/many-notifications.js';

// Issue 43 §1: an export costs linear time in what it returns and is written in slices that yield.
// 5,000 notifications here (the 100,000 of the issue are in admin-export.scale.test.ts): the build
// before the slices held the event loop for seconds with as many (the NDJSON's resentAs scanned
// every notification per line; the HAR was one JSON.stringify of the whole log).
const COUNT = 5_000;

async function emulatorWith(count: number): Promise<RunningEmulator> {
  const r = await serve({ clock: 'manual', clockStart: CLOCK_START });
  addNotifications(r.emulator, count, { startMs: Date.parse(CLOCK_START), resendEvery: 10 });
  return r;
}

/** Reads an answer's body to its end as text, counting the chunks it came in. */
async function readAll(res: Response): Promise<{ text: string; chunks: number }> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let chunks = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text, chunks };
    chunks++;
    text += decoder.decode(value, { stream: true });
  }
}

describe('exports of many notifications stream in slices (issue 43 §1)', () => {
  it('NDJSON: one line per notification with its resentAs, streamed while health is answered', async () => {
    const r = await emulatorWith(COUNT);
    const watch = watchLoop(r.url);
    const res = await fetch(`${r.url}/__admin/notifications/export?format=ndjson`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const { text, chunks } = await readAll(res);
    const figures = await watch.stop();
    console.log(`NDJSON export of ${COUNT}: ${chunks} chunks, ${JSON.stringify(figures)}`);
    const lines = text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; resentAs: string[] });
    expect(lines).toHaveLength(COUNT);
    // Record i (i ≥ 5, a multiple of 10) resends record i - 5: ids n-(i+1) and n-(i-4).
    const resentAs = new Map<string, string[]>();
    for (let i = 10; i < COUNT; i += 10)
      resentAs.set(`n-${String(i - 4).padStart(6, '0')}`, [`n-${String(i + 1).padStart(6, '0')}`]);
    for (const line of lines) expect(line.resentAs).toEqual(resentAs.get(line.id) ?? []);
    // Streamed, with health answered meanwhile; how long the loop was held is a figure of
    // `npm run bench -- admin-scale`, not a test's (a busy machine stretches any duration).
    expect(chunks).toBeGreaterThan(1);
    expect(figures.healthCalls).toBeGreaterThan(0);
    // A line is the notification's own view (GET /notifications/:id) and its body as sent.
    for (const line of lines.slice(0, 12)) {
      const view = (await (await fetch(`${r.url}/__admin/notifications/${line.id}`)).json()) as object;
      const gz = Buffer.from(
        await (await fetch(`${r.url}/__admin/notifications/${line.id}/body.gz`)).arrayBuffer(),
      );
      expect(line).toEqual({ ...view, gzipBase64: gz.toString('base64') });
    }
  });

  it('HAR: every attempt once, in the order they started (ties in notification order), streamed while health is answered', async () => {
    const r = await emulatorWith(COUNT);
    const watch = watchLoop(r.url);
    const res = await fetch(`${r.url}/__admin/notifications/export`);
    expect(res.status).toBe(200);
    const { text, chunks } = await readAll(res);
    const figures = await watch.stop();
    console.log(`HAR export of ${COUNT}: ${chunks} chunks, ${JSON.stringify(figures)}`);
    const har = JSON.parse(text) as {
      log: {
        version: string;
        entries: { startedDateTime: string; _notificationId: string; _attempt: number }[];
      };
    };
    expect(har.log.version).toBe('1.2');
    const { entries } = har.log;
    // Record i has 1 + i % 3 attempts.
    let attempts = 0;
    for (let i = 0; i < COUNT; i++) attempts += 1 + (i % 3);
    expect(entries).toHaveLength(attempts);
    expect(new Set(entries.map((e) => `${e._notificationId}/${e._attempt}`)).size).toBe(attempts);
    for (let k = 1; k < entries.length; k++) {
      const [a, b] = [entries[k - 1]!, entries[k]!];
      const order =
        Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime) ||
        (a._notificationId < b._notificationId ? -1 : 1);
      expect(order, `${a._notificationId} before ${b._notificationId}`).toBeLessThan(0);
    }
    expect(chunks).toBeGreaterThan(1);
    expect(figures.healthCalls).toBeGreaterThan(0);
  });

  it('filters an export as the list does, a search included', async () => {
    const r = await emulatorWith(300);
    const res = await fetch(`${r.url}/__admin/notifications/export?format=ndjson&state=exhausted&attempts=3`);
    const lines = (await res.text())
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; state: string });
    expect(lines).toHaveLength(100);
    expect(lines.every((l) => l.state === 'exhausted')).toBe(true);
    const none = await fetch(`${r.url}/__admin/notifications/export?q=no-such-word-anywhere`);
    expect((JSON.parse(await none.text()) as { log: { entries: unknown[] } }).log.entries).toEqual([]);
  });
});

describe('the notification list is a page, however many are kept (issue 43 §1)', () => {
  it('answers the newest 1,000 without limit, with total and nextCursor; before walks the rest, and the client reads them all', async () => {
    const r = await emulatorWith(2_500);
    type Page = { notifications: { id: string }[]; total: number; nextCursor: string | null };
    const get = async (query: string) =>
      (await (await fetch(`${r.url}/__admin/notifications${query}`)).json()) as Page;
    const first = await get('');
    expect(first.notifications).toHaveLength(1_000);
    expect(first.total).toBe(2_500);
    expect(first.notifications.at(-1)!.id).toBe('n-002500');
    expect(first.nextCursor).toBe(first.notifications[0]!.id);
    const ids = first.notifications.map((n) => n.id);
    for (let page = first; page.nextCursor; ) {
      page = await get(`?before=${page.nextCursor}`);
      ids.unshift(...page.notifications.map((n) => n.id));
    }
    expect(ids).toEqual(Array.from({ length: 2_500 }, (_, i) => `n-${String(i + 1).padStart(6, '0')}`));
    const filtered = await get('?state=exhausted&limit=10');
    expect(filtered.total).toBe(833);
    expect(filtered.notifications).toHaveLength(10);
    const client = new AdminClient(r.url);
    expect((await client.allNotifications()).notifications.map((n) => n.id)).toEqual(ids);
    const settled = await client.waitSettled({ state: 'delivered' });
    expect(settled.settled).toBe(true);
    expect(settled.notifications).toHaveLength(2_500 - 833);
  });
});
