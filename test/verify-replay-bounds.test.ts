/**
 * `verify --replay` does not trust its file (issue 43 §7, issue 44 §5), through the real CLI: it sends
 * only to the receiver the report names (never an `/__admin` path, a probe only at that receiver's
 * host unless `--probe` says otherwise), refuses a trace with more requests than a case can send
 * before sending any, shortens a recorded wait of a day, and sends the requests of one redelivery
 * batch at once, as the batch did, however the first run's answers were timed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, runCli } from './helpers/cli.js';
import { listenLoopback } from './helpers/verify-receivers.js';

const KEY = 'replay-bounds-key';
const CASE = 'acknowledges-every-status';
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'verify-replay-bounds-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A loopback server that counts what it gets (POSTs and GETs), answers 200, and holds each POST `holdMs`. */
async function counter(holdMs = 0) {
  let inFlight = 0;
  const seen = { posts: 0, gets: 0, paths: [] as string[], maxInFlight: 0 };
  const server = await listenLoopback((req: IncomingMessage, res: ServerResponse) => {
    seen.paths.push(`${req.method} ${req.url}`);
    req.resume();
    req.on('end', async () => {
      if (req.method === 'GET') {
        seen.gets++;
        res.writeHead(200, { 'content-type': 'application/json' }).end('{"BookingStatus":"Issued"}');
        return;
      }
      seen.posts++;
      inFlight++;
      seen.maxInFlight = Math.max(seen.maxInFlight, inFlight);
      await sleep(holdMs);
      inFlight--;
      res.writeHead(200, { 'content-type': 'text/plain' }).end('OK');
    });
  });
  return { ...server, seen };
}

interface Attempt {
  atMs: number;
  durationMs: number;
  batchAt?: string;
}

/** A report as `verify --json` writes it, with one case whose notifications were attempted at `attempts`. */
async function report(
  name: string,
  receiver: string,
  attempts: Attempt[][],
  probe?: { template: string; reads: number },
): Promise<string> {
  const notifications = attempts.map((tried, i) => {
    const bookingId = 4_000_000 + i;
    const body = {
      Reservation: { BookingID: bookingId, BookingStatus: 'Issued', UpdateDate: '2026-11-25T22:41:03Z' },
    };
    return {
      n: i + 1,
      bookingId,
      bookingNumber: 'QWERTY',
      bookingStatus: 'Issued',
      updateDate: '2026-11-25T22:41:03Z',
      filename: `20261125_224103Z-QWERTY${i}.json`,
      credential: 'api-key',
      gzipBase64: gzipSync(JSON.stringify(body)).toString('base64'),
      attempts: tried.map((a) => ({
        ...a,
        outcome: 'http_status',
        status: 200,
        body: 'OK',
        message: 'HTTP 200',
        acknowledged: true,
      })),
    };
  });
  const readings = Array.from({ length: probe?.reads ?? 0 }, (_, i) => ({
    atMs: 5 + i,
    bookingId: 4_000_000,
    bookingNumber: 'QWERTY',
    expect: 'Issued',
    url: 'x',
    status: 200,
    bookingStatus: 'Issued',
    text: '{}',
  }));
  const file = join(dir, `${name}.json`);
  await writeFile(
    file,
    JSON.stringify({
      receiver,
      ...(probe ? { probe: probe.template } : {}),
      probeDeadlineMs: 1_000,
      responseTimeoutMs: 5_000,
      cases: [
        { id: CASE, status: 'passed', reason: 'answered 200', trace: { notifications, probe: readings } },
      ],
    }),
  );
  return file;
}

/** The real CLI, killed after `limitMs` (a replay that waits what a crafted file says must not hang the suite). */
function replay(file: string, extra: string[] = [], limitMs = 90_000) {
  return runCli(
    ['verify', '--replay', file, '--only', CASE, '--api-key', KEY, '--allow-http', ...extra],
    {},
    ROOT,
    limitMs,
  );
}

const once = (atMs: number, durationMs = 1): Attempt[] => [{ atMs, durationMs }];

describe.concurrent('verify --replay is bounded and safe', () => {
  it('refuses a report whose receiver is an /__admin path, and sends nothing', async () => {
    const server = await counter();
    try {
      const file = await report('admin', `${server.base}/__admin/reset`, [once(0)]);
      const run = await replay(file);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toMatch(/\/__admin\/reset.*not a receiver/);
      expect(server.seen.paths).toEqual([]);
      // --url cannot name one either: no receiver lives under /__admin.
      const told = await replay(file, ['--url', `${server.base}/__admin/clock`]);
      expect(told.code).toBe(2);
      expect(server.seen.paths).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('refuses a report whose probe is at another host than its receiver unless --probe says so', async () => {
    const receiver = await counter();
    const other = await counter();
    try {
      const file = await report('probe-elsewhere', `${receiver.base}/reportbo`, [once(0)], {
        template: `${other.base}/bookings/{BookingID}`,
        reads: 1,
      });
      const run = await replay(file);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toMatch(/probe .* another host than its receiver/);
      expect(receiver.seen.paths).toEqual([]);
      expect(other.seen.paths).toEqual([]);
      // Told with --probe: read there.
      const told = await replay(file, ['--probe', `${receiver.base}/bookings/{BookingID}`]);
      expect(told.code, told.stdout + told.stderr).toBe(0);
      expect(receiver.seen.gets).toBeGreaterThan(0);
      expect(other.seen.paths).toEqual([]);
    } finally {
      await receiver.close();
      await other.close();
    }
  });

  it('refuses a trace with more requests than a case can send, before sending any', async () => {
    const server = await counter();
    try {
      // 11 notifications of 1,000 attempts each: 11,000 requests.
      const attempts = Array.from({ length: 11 }, (_, n) =>
        Array.from({ length: 1_000 }, (_, i) => ({ atMs: n * 1_000 + i, durationMs: 0 })),
      );
      const file = await report('too-many', `${server.base}/reportbo`, attempts);
      const run = await replay(file);
      expect(run.code, run.stdout + run.stderr).toBe(2);
      expect(run.stderr).toMatch(/11000 requests .* over the 10000 a replay sends/);
      expect(server.seen.posts).toBe(0);
    } finally {
      await server.close();
    }
  });

  it('shortens a recorded wait of a day and says so', async () => {
    const server = await counter();
    try {
      const file = await report('a-day', `${server.base}/reportbo`, [once(0), once(86_400_000)]);
      const run = await replay(file, [], 60_000);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(server.seen.posts).toBe(2);
      expect(run.stdout).toMatch(
        /a pause of \d+ ms in the trace, longer than the kit ever pauses, was shortened to 10000 ms/,
      );
    } finally {
      await server.close();
    }
  });

  it("a real burst case's report replays its batch at once against a slower receiver", async () => {
    const fast = await counter();
    const slow = await counter(300);
    try {
      const json = join(dir, 'burst.json');
      const first = await runCli([
        'verify',
        '--receiver',
        `${fast.base}/reportbo`,
        '--api-key',
        KEY,
        '--allow-http',
        '--only',
        'survives-batch-burst',
        '--burst-concurrency',
        '20',
        '--json',
        json,
      ]);
      expect(first.code, first.stdout + first.stderr).toBe(0);
      const run = await runCli([
        'verify',
        '--replay',
        json,
        '--only',
        'survives-batch-burst',
        '--api-key',
        KEY,
        '--allow-http',
        '--url',
        `${slow.base}/reportbo`,
      ]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(slow.seen.posts).toBe(20);
      expect(slow.seen.maxInFlight).toBe(20);
    } finally {
      await fast.close();
      await slow.close();
    }
  });

  it('sends the requests of one redelivery batch at once, as the batch did', async () => {
    // The first run's receiver answered each in about a millisecond, so the trace has them one
    // after the other; the batch sent them at once, and so must the replay, however fast the
    // receiver answers now (this one holds each 300 ms).
    const server = await counter(300);
    try {
      const batchAt = '2026-11-25T22:55:00.000Z';
      const attempts = Array.from({ length: 20 }, (_, i) => [{ atMs: 10 + i, durationMs: 0, batchAt }]);
      const file = await report('batch', `${server.base}/reportbo`, attempts);
      const run = await replay(file);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      expect(server.seen.posts).toBe(20);
      expect(server.seen.maxInFlight).toBe(20);
    } finally {
      await server.close();
    }
  });
});
