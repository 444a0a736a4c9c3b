import { closeSync, mkdtempSync, openSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import type { SettingsInput } from '../src/config/index.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { adminCall } from './helpers/admin-call.js';
import { behave, receiver } from './helpers/receiver.js';

// Issue 31 §2: a change the data dir could not write must not be visible (append first, then
// apply), and a write that fails inside a delivery never escapes the outbox. The journal really
// cannot be written: its file descriptor is swapped for a read-only one, whose writes fail (EBADF)
// while its flushes (fdatasync) still succeed, so only the appends fail.

const dirs: string[] = [];
const running: RunningEmulator[] = [];
afterEach(async () => {
  for (const r of running.splice(0)) await r.close().catch(() => {});
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function settings(): SettingsInput {
  const d = mkdtempSync(join(tmpdir(), 'reportbo-dd-full-'));
  dirs.push(d);
  return { dataDir: join(d, 'data'), clock: 'manual', clockStart: '2026-04-27T10:00:00Z' };
}

/** Collects the emulator's log lines (JSON), for the test to read. */
function capturedLog() {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n')) if (line) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** From now on the data dir's journal writes fail: its descriptor becomes a read-only one. */
function breakTheJournal(dataDir: string): void {
  const readOnly = join(dataDir, '..', 'read-only');
  writeFileSync(readOnly, '');
  const fd = readdirSync('/proc/self/fd')
    .map(Number)
    .find((n) => {
      try {
        return (
          /\/journal-\d+\.bin$/.test(readlinkSync(`/proc/self/fd/${n}`)) &&
          readlinkSync(`/proc/self/fd/${n}`).startsWith(dataDir)
        );
      } catch {
        return false;
      }
    });
  if (fd === undefined) throw new Error(`no open journal of ${dataDir}`);
  closeSync(fd);
  // A new descriptor takes the lowest free number: hold the lower ones until it is the journal's.
  const lower: number[] = [];
  for (;;) {
    const full = openSync(readOnly, 'r');
    if (full === fd) break;
    lower.push(full);
    if (full > fd) throw new Error(`descriptor ${fd} was taken by someone else`);
  }
  for (const n of lower) closeSync(n);
  expect(readlinkSync(`/proc/self/fd/${fd}`)).toBe(readOnly);
}

const admin = adminCall;

describe('--data-dir whose journal cannot be written', () => {
  it('answers an admin write it could not keep with an error, and memory stays as it was', async () => {
    const s = settings();
    const emu = await startServer({ port: 0, logLevel: 'silent', allowHttp: true, ...s });
    running.push(emu);
    await admin(emu, 'POST', '/users', { username: 'kept', password: 'pw', idWeb: 1, webDescription: 'K' });
    await admin(emu, 'POST', '/credentials', {
      id: 'c1',
      apiKey: 'kept-key-000001',
      url: 'http://127.0.0.1:9/old',
    });
    await admin(emu, 'POST', '/faults', { kind: 'status', status: 503, count: 3 });
    await admin(emu, 'POST', '/outages', { from: '2030-01-01T00:00:00Z', for: 'PT1H' });
    const before = {
      users: await admin(emu, 'GET', '/users'),
      credentials: await admin(emu, 'GET', '/credentials'),
      faults: await admin(emu, 'GET', '/faults'),
      outages: await admin(emu, 'GET', '/outages'),
      reservations: await admin(emu, 'GET', '/reservations'),
      notifications: await admin(emu, 'GET', '/notifications'),
    };
    breakTheJournal(s.dataDir!);

    const writes: Array<[string, string, unknown?]> = [
      ['POST', '/users', { username: 'lost', password: 'pw', idWeb: 2, webDescription: 'L' }],
      ['PUT', '/users/kept', { password: 'pw2', idWeb: 3, webDescription: 'changed' }],
      ['DELETE', '/users/kept'],
      ['PUT', '/credentials/c1', { apiKey: 'lost-key-000002', url: 'http://127.0.0.1:9/new' }],
      ['DELETE', '/faults'],
      ['DELETE', '/outages'],
      ['POST', '/events', { type: 'Issue' }],
      ['POST', '/reset'],
    ];
    for (const [method, path, body] of writes) {
      const answer = await admin(emu, method, path, body);
      expect(answer.status, `${method} ${path}`).toBeGreaterThanOrEqual(500);
    }
    expect({
      users: await admin(emu, 'GET', '/users'),
      credentials: await admin(emu, 'GET', '/credentials'),
      faults: await admin(emu, 'GET', '/faults'),
      outages: await admin(emu, 'GET', '/outages'),
      reservations: await admin(emu, 'GET', '/reservations'),
      notifications: await admin(emu, 'GET', '/notifications'),
    }).toEqual(before);
  });

  it('keeps delivering when an attempt cannot be written: the attempt stays in memory, the failure is logged, the process runs on', async () => {
    const rec = await receiver({ defaultBehaviour: behave.status(503) });
    const s = settings();
    const { logger, lines } = capturedLog();
    const emu = await startServer({ port: 0, allowHttp: true, ...s }, { logger });
    running.push(emu);
    await admin(emu, 'POST', '/credentials', { id: 'c1', apiKey: 'kept-key-000001', url: rec.url });
    const event = await admin(emu, 'POST', '/events', { type: 'Issue' });
    const id = (event.body.notifications as Array<{ id: string }>)[0]!.id;
    await admin(emu, 'GET', '/notifications?wait=settled');
    breakTheJournal(s.dataDir!);

    // A batch (attempt started, attempt ended, batch done) and a retry now, all unwritable. The
    // clock move that ran the batch is itself a write the journal cannot keep: refused with 503
    // and the clock put back (issue 43 §4); the batch it ran stays run.
    expect((await admin(emu, 'POST', '/clock/advance', { by: 'PT1H' })).status).toBe(503);
    expect((await admin(emu, 'GET', '/redelivery/batches')).body).toMatchObject({
      batches: [{ attempted: 1, failed: 1 }],
    });
    expect((await admin(emu, 'POST', `/notifications/${id}/retry`)).status).toBe(200);
    await admin(emu, 'GET', '/notifications?wait=settled');

    const n = await admin(emu, 'GET', `/notifications/${id}`);
    expect((n.body.attempts as Array<{ trigger: string }>).map((a) => a.trigger)).toEqual([
      'first',
      'batch',
      'manual',
    ]);
    // The process runs on and answers; its health may say the data dir is not writable (decision 0125).
    const health = await fetch(`${emu.url}/__admin/health`);
    expect(health.status === 200 || ((await health.json()) as { status: string }).status === 'degraded').toBe(
      true,
    );
    const unkept = lines.filter(
      (l) => l.level === 50 && String(l.msg).startsWith('data dir: could not keep'),
    );
    expect(unkept.map((l) => l.change)).toEqual(
      expect.arrayContaining(['attempt_started', 'attempt_ended', 'batch_started', 'batch_done']),
    );
    expect(JSON.stringify(unkept[0]?.err)).toContain('EBADF');
  });
});
