import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLOCK_START } from './helpers/clock.js';
import { DataDirServe } from './helpers/data-dir-serve.js';

// The acceptance test of --data-dir (decision 0080): 3,000 events to a receiver that fails 30% of its
// answers, the emulator killed with SIGKILL at random instants (at least 5 restarts), then everything
// the admin API acknowledged must be there, no notification whose 200 the emulator recorded is sent
// again, none has more than 5 attempts, and every batch instant the clock crossed was run or recorded.
// Needs `npm run build` (it runs the real CLI from dist/). The manual clock keeps it quick: the test
// moves time itself, one batch instant at a time.

const EVENTS = 3_000;
const MIN_RESTARTS = 5;
/** Kills stop after this many restarts (then one last one at the end), so the test ends in time on a loaded machine. */
const MAX_RESTARTS = 8;

interface Answer {
  status: number;
}

/** A loopback receiver that fails 30% of answers (503), seeded, and counts per notification (filename). */
async function startReceiver(): Promise<{ server: Server; url: string; answers: Map<string, Answer[]> }> {
  const answers = new Map<string, Answer[]>();
  let state = 0x2545f491;
  const unit = () => {
    // xorshift32: the same answers for the same request order.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = /filename=(\S+)/.exec(req.headers['content-disposition'] ?? '')?.[1] ?? '?';
      const status = unit() < 0.3 ? 503 : 200;
      const list = answers.get(key) ?? [];
      list.push({ status });
      answers.set(key, list);
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'ok' : 'busy');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, answers };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('--data-dir across kill -9', () => {
  const work = mkdtempSync(join(tmpdir(), 'reportbo-crash-'));
  const emulator = new DataDirServe(join(work, 'data'), [
    '--clock',
    'manual',
    '--clock-start',
    CLOCK_START,
    '--seed',
    '19',
    '--allow-http',
    '--log-level',
    'warn',
    '--log-format',
    'json',
  ]);
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  afterAll(async () => {
    await emulator.kill();
    receiver?.server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('keeps every acknowledged change, never resends a recorded 200, never exceeds 5 attempts, records every batch instant', async () => {
    receiver = await startReceiver();
    await emulator.start();

    /** One admin call; undefined when the emulator was down or killed before it answered (not acknowledged). */
    const call = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      try {
        const res = await fetch(`${emulator.url}${path}`, {
          method,
          headers: body === undefined ? {} : { 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        const text = await res.text();
        if (res.status >= 500) throw new Error(`${method} ${path}: ${res.status} ${text}`);
        if (res.status >= 400) return { refused: res.status, text };
        return text ? JSON.parse(text) : {};
      } catch (err) {
        if (err instanceof Error && err.message.startsWith(method)) throw err;
        return undefined;
      }
    };
    /** Retries a call until the emulator answers it (across restarts). */
    const until = async (method: string, path: string, body?: unknown): Promise<unknown> => {
      for (;;) {
        const answer = await call(method, path, body);
        if (answer !== undefined) return answer;
        await sleep(50);
      }
    };

    // Acknowledged admin changes, as the driver saw them answered.
    const ackedNotifications = new Set<string>();
    const ackedBookings = new Set<number>();
    const usersAdded = new Set<string>();
    const usersDeleted = new Set<string>();
    let ackedClockMs = Date.parse(CLOCK_START);
    const crossed = new Set<string>();
    await until('POST', '/__admin/credentials', {
      id: 'c1',
      apiKey: 'crash-test-key-0001',
      url: receiver.url,
    });

    // The killer: SIGKILL at random instants, then a restart, until told to stop.
    let killing = true;
    const killer = (async () => {
      while (killing && emulator.restarts < MAX_RESTARTS) {
        await sleep(800 + Math.random() * 1700);
        if (!killing) break;
        await emulator.kill();
        await emulator.start();
      }
    })();

    let sent = 0;
    let round = 0;
    while (ackedNotifications.size < EVENTS || emulator.restarts < MIN_RESTARTS) {
      round++;
      const want = Math.min(25, Math.max(0, EVENTS - ackedNotifications.size));
      const answers = await Promise.all(
        Array.from({ length: want }, () => call('POST', '/__admin/events', { type: 'Issue' })),
      );
      sent += want;
      if (want > 0 && answers.every((a) => a === undefined)) await sleep(100); // down: wait for the restart
      for (const a of answers) {
        const ev = a as {
          notifications?: Array<{ id: string }>;
          reservations?: Array<{ bookingId: number }>;
        };
        for (const n of ev?.notifications ?? []) ackedNotifications.add(n.id);
        for (const r of ev?.reservations ?? []) ackedBookings.add(r.bookingId);
      }
      if (round % 4 === 0) {
        const name = `user-${round}`;
        const added = (await call('POST', '/__admin/users', {
          username: name,
          password: 'p',
          idWeb: round,
          webDescription: 'crash test',
        })) as { username?: string } | undefined;
        if (added?.username === name) usersAdded.add(name);
      }
      if (round % 12 === 0 && usersAdded.size > 1) {
        const victim = [...usersAdded].find((u) => !usersDeleted.has(u))!;
        const res = await call('DELETE', `/__admin/users/${victim}`);
        if (res !== undefined && !(res as { refused?: number }).refused) usersDeleted.add(victim);
      }
      if (round % 6 === 0) {
        const moved = (await call('POST', '/__admin/clock/advance', { to: 'next-batch' })) as
          | { to?: string; batches?: string[] }
          | undefined;
        if (moved?.to) {
          ackedClockMs = Math.max(ackedClockMs, Date.parse(moved.to));
          for (const b of moved.batches ?? []) crossed.add(b);
        }
      }
      if (ackedNotifications.size >= EVENTS) await sleep(200); // only waiting for restarts now
    }
    killing = false;
    await killer;

    // Let every notification end: one batch instant at a time, each after the attempts settled.
    for (let i = 0; i < 8; i++) {
      await until('GET', '/__admin/notifications?state=pending&wait=settled&timeoutMs=60000');
      const pending = (await until('GET', '/__admin/notifications?state=pending')) as {
        notifications: unknown[];
      };
      if (pending.notifications.length === 0) break;
      const moved = (await until('POST', '/__admin/clock/advance', { to: 'next-batch' })) as {
        to: string;
        batches: string[];
      };
      ackedClockMs = Math.max(ackedClockMs, Date.parse(moved.to));
      for (const b of moved.batches) crossed.add(b);
    }
    await until('GET', '/__admin/notifications?wait=settled&timeoutMs=60000');

    // One last kill -9 and restart: what follows reads the data dir back.
    await emulator.kill();
    await emulator.start();

    // Every page of a list (a page holds the newest 1,000 at most, decisions 0209 and 0236), oldest first.
    const everyPage = async <T>(path: string, member: string): Promise<T[]> => {
      const items: T[] = [];
      for (let before: string | null = null; ; ) {
        const page = (await until(
          'GET',
          `${path}?limit=1000${before === null ? '' : `&before=${before}`}`,
        )) as Record<string, unknown> & { nextCursor: string | null };
        items.unshift(...(page[member] as T[]));
        before = page.nextCursor;
        if (before === null) return items;
      }
    };
    type Listed = { id: string; state: string; filename: string; attemptCount: number };
    const all = { notifications: await everyPage<Listed>('/__admin/notifications', 'notifications') };
    const byId = new Map(all.notifications.map((n) => [n.id, n]));
    const users = new Set(
      (await everyPage<{ username: string }>('/__admin/users', 'users')).map((u) => u.username),
    );
    const reservations = new Set(
      (await everyPage<{ bookingId: number }>('/__admin/reservations', 'reservations')).map(
        (r) => r.bookingId,
      ),
    );
    const clock = (await until('GET', '/__admin/clock')) as { now: string };
    const { batches } = (await until('GET', '/__admin/redelivery/batches')) as {
      batches: Array<{ at: string; skipped?: boolean; reason?: string; attempted: number }>;
    };

    // No acknowledged admin change lost.
    const lostNotifications = [...ackedNotifications].filter((id) => !byId.has(id));
    expect(lostNotifications).toEqual([]);
    expect([...ackedBookings].filter((b) => !reservations.has(b))).toEqual([]);
    expect([...usersAdded].filter((u) => !usersDeleted.has(u) && !users.has(u))).toEqual([]);
    expect([...usersDeleted].filter((u) => users.has(u))).toEqual([]);
    expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(ackedClockMs);

    // No notification pending, none with more than 5 attempts (emulator's record and receiver's count).
    const answers = receiver.answers;
    expect(all.notifications.filter((n) => n.state === 'pending').map((n) => n.id)).toEqual([]);
    expect(all.notifications.filter((n) => n.attemptCount > 5).map((n) => n.id)).toEqual([]);
    expect([...answers].filter(([, a]) => a.length > 5).map(([k]) => k)).toEqual([]);

    // No notification whose 200 the emulator recorded was sent again: after the 200 a delivered
    // notification records, the receiver saw nothing more. A receiver that answered 200 more than once
    // may only have done so for attempts the emulator records as interrupted (the crash came between
    // the receiver's answer and the emulator's record of it: at-least-once, as the provider).
    let unrecorded200 = 0;
    let interrupted = 0;
    let attempts = 0;
    for (const n of all.notifications) {
      attempts += n.attemptCount;
      const got = answers.get(n.filename) ?? [];
      const ok = got.filter((a) => a.status === 200).length;
      if (n.state === 'delivered') expect(got.at(-1)?.status, n.id).toBe(200);
      if (n.state === 'exhausted' || ok > 1) {
        const detail = (await until('GET', `/__admin/notifications/${n.id}`)) as {
          attempts: Array<{ outcome: string; statusCode?: number }>;
        };
        const cut = detail.attempts.filter((a) => a.outcome === 'interrupted_by_crash').length;
        interrupted += cut;
        const recorded200 = detail.attempts.filter((a) => a.statusCode === 200).length;
        expect(recorded200, n.id).toBeLessThanOrEqual(1);
        expect(ok - recorded200, `${n.id}: 200s the emulator did not record`).toBeLessThanOrEqual(cut);
        unrecorded200 += ok - recorded200;
      }
    }

    // Every batch instant the clock crossed was run or recorded, with no gap between the first and the last.
    const seen = new Map(batches.map((b) => [b.at, b]));
    expect([...crossed].filter((at) => !seen.has(new Date(at).toISOString()))).toEqual([]);
    const instants = batches.map((b) => Date.parse(b.at)).sort((a, b) => a - b);
    for (let i = 1; i < instants.length; i++)
      expect(instants[i]! - instants[i - 1]!, 'batch instants one hour apart').toBe(3_600_000);

    const delivered = all.notifications.filter((n) => n.state === 'delivered').length;
    const requests = [...answers.values()].reduce((s, a) => s + a.length, 0);
    const dataBytes = readdirSync(emulator.dataDir)
      .filter((f) => f.endsWith('.bin'))
      .reduce((s, f) => s + statSync(join(emulator.dataDir, f)).size, 0);
    const restart = emulator.startMs.slice(1).sort((a, b) => a - b);
    console.log(
      [
        `persistence crash test: ${EVENTS} events acknowledged (${sent} posted), ${emulator.restarts} kill -9 restarts`,
        `  notifications ${all.notifications.length}: ${delivered} delivered, ${all.notifications.length - delivered} exhausted; ${attempts} attempts, ${interrupted} interrupted among the exhausted and re-delivered ones`,
        `  receiver: ${requests} requests; ${unrecorded200} 200 answers the emulator never recorded (the kill fell between answer and record; each was sent again, at-least-once)`,
        `  users added ${usersAdded.size}, deleted ${usersDeleted.size}; batch instants crossed ${crossed.size}, recorded ${batches.length} (${batches.filter((b) => b.reason).length} with a reason)`,
        `  restart to ready: median ${Math.round(restart[restart.length >> 1] ?? 0)} ms, max ${Math.round(restart.at(-1) ?? 0)} ms; journal+snapshot ${Math.round(dataBytes / 1024)} KiB`,
      ].join('\n'),
    );
    expect(emulator.restarts).toBeGreaterThanOrEqual(MIN_RESTARTS);
  });
});
