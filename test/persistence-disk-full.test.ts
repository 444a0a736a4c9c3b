import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { SettingsInput } from '../src/config/index.js';
import { DataDirUnwritableError } from '../src/errors.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { DataDir } from '../src/store/data-dir.js';
import type { KeptRecord } from '../src/store/kinds.js';
import { BIN } from './helpers/cli.js';
import { fillFileSystem as fill, mountSmallDisk, unmountSmallDisk } from './helpers/fill.js';

// A full disk (issue 31 §2), on a real file system: a tmpfs of 512 KiB mounted for this file.
// Under --data-dir (decision 0125) a write the disk cannot take is answered 503 and leaves nothing
// behind; health says degraded; once there is room again writes are kept and the next start reads
// every acknowledged change back. A log on a full disk drops lines and never keeps the process from
// stopping (decision 0126).

const root = mkdtempSync(join(tmpdir(), 'reportbo-full-'));
/** Why the file system could not be mounted (not root, no mount permission in this container). */
const cannotMount = mountSmallDisk(root);
if (cannotMount) console.warn(`persistence-disk-full: skipped: ${cannotMount}`);

afterAll(() => {
  if (!cannotMount) unmountSmallDisk(root);
  rmSync(root, { recursive: true, force: true });
});

async function admin(r: RunningEmulator, method: string, path: string, body?: unknown) {
  const res = await fetch(`${r.url}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const user = (i: number) => ({
  username: `user-${String(i).padStart(4, '0')}`,
  password: `password-of-user-${i}-`.repeat(3),
  idWeb: 1000 + i,
  webDescription: `Agency number ${i} with a description long enough to straddle a page`,
});

/** A record that carries `name` (a user removed: the smallest kind). */
const named = (name: string): KeptRecord => ({ k: 'user-', d: { username: name } });
/** A record with bytes (a reservation and its gzipped body). */
const withBody = (name: string, b: Buffer): KeptRecord => ({
  k: 'res',
  d: {
    record: {
      bookingId: 1,
      bookingNumber: name,
      status: 'Issued',
      updatedAt: '2026-04-27T10:00:00Z',
      history: [],
    },
    sequence: 1,
  },
  b,
});

describe.skipIf(cannotMount !== undefined)('--data-dir on a full disk', () => {
  it('cuts a record the disk took only part of back to the last whole one, and throws DataDirUnwritableError', () => {
    const dir = join(root, 'unit');
    const read: unknown[] = [];
    const store = DataDir.open(dir, 0, (rec) => read.push(rec.k === 'user-' ? rec.d.username : rec.k));
    const filler = join(root, 'filler-unit');
    try {
      store.append(named('first'));
      fill(filler);
      const journal = join(dir, 'journal-0.bin');
      const before = statSync(journal).size;
      // Larger than the journal's last page: the page's slack takes part of it (a short write).
      expect(() => store.append(withBody('big', Buffer.alloc(64 * 1024, 1)))).toThrow(DataDirUnwritableError);
      expect(statSync(journal).size).toBe(before);
      expect(store.failure?.cause).toMatch(/^ENOSPC/);
      unlinkSync(filler);
      store.append(named('after'));
      expect(store.failure).toBeUndefined();
    } finally {
      store.close();
      rmSync(filler, { force: true });
    }
    DataDir.open(dir, 0, (rec) => read.push(rec.k === 'user-' ? rec.d.username : rec.k)).close();
    expect(read).toEqual(['first', 'after']);
  });

  it('answers 503 and keeps nothing partial, says degraded, recovers, and the next start reads every acknowledged change', async () => {
    const settings: SettingsInput = { port: 0, logLevel: 'silent', dataDir: join(root, 'data') };
    let emu = await startServer(settings);
    try {
      const filler = join(root, 'filler');
      fill(filler);
      const acknowledged: string[] = [];
      const refused: Array<Record<string, unknown>> = [];
      let i = 0;
      // Until several in a row are refused: the first refusal is (on tmpfs) a short write.
      while (refused.length < 3 && i < 500) {
        const res = await admin(emu, 'POST', '/users', user(i));
        if (res.status === 201) acknowledged.push(user(i).username);
        else {
          expect(res.status).toBe(503);
          refused.push(res.body);
        }
        i++;
      }
      expect(refused.length).toBe(3);
      expect(refused[0]).toMatchObject({
        error: { code: 'data_dir_unwritable', details: { dataDir: settings.dataDir } },
      });
      expect((refused[0]!.error as { message: string }).message).toContain(settings.dataDir as string);
      const health = await admin(emu, 'GET', '/health');
      expect(health.status).toBe(503);
      expect(health.body).toMatchObject({ status: 'degraded' });
      expect(health.body.degraded).toMatch(/^data dir not writable: ENOSPC/);

      // Room again: the next change is kept and health is ok.
      unlinkSync(filler);
      for (let n = 0; n < 5; n++, i++) {
        expect((await admin(emu, 'POST', '/users', user(i))).status).toBe(201);
        acknowledged.push(user(i).username);
      }
      expect(await admin(emu, 'GET', '/health')).toMatchObject({ status: 200, body: { status: 'ok' } });

      await emu.close();
      emu = await startServer(settings);
      const users = (await admin(emu, 'GET', '/users')).body.users as Array<{ username: string }>;
      // Every acknowledged user, and none of the refused ones (nothing of them reached the journal).
      expect(users.map((u) => u.username).sort()).toEqual(acknowledged.sort());
    } finally {
      await emu.close();
    }
  });
});

describe.skipIf(cannotMount !== undefined)('the log on a full disk', () => {
  it('drops lines, keeps answering, and SIGTERM still ends the process (the CLI, dist/)', async () => {
    const logFile = join(root, 'emulator.log');
    const elsewhere = mkdtempSync(join(tmpdir(), 'reportbo-full-url-'));
    const urlFile = join(elsewhere, 'url');
    const filler = join(root, 'filler-log');
    const fd = openSync(logFile, 'w');
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--url-file', urlFile, '--log-format', 'json'],
      {
        stdio: ['ignore', 'ignore', fd],
      },
    );
    closeSync(fd);
    try {
      while (!existsSync(urlFile) || readFileSync(urlFile, 'utf8').trim() === '') {
        expect(child.exitCode).toBeNull();
        await sleep(20);
      }
      const url = readFileSync(urlFile, 'utf8').trim();
      fill(filler);
      // Each change logs a line: far more than the log file's last page holds.
      for (let i = 0; i < 400; i++) {
        const res = await fetch(`${url}/__admin/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(user(i)),
        });
        expect(res.status).toBe(201);
      }
      expect((await fetch(`${url}/__admin/health`)).status).toBe(200);
      expect(child.exitCode).toBeNull();
      // Room again: the next lines are written, the first of them counting what was dropped.
      unlinkSync(filler);
      for (let i = 400; i < 403; i++)
        await fetch(`${url}/__admin/users`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(user(i)),
        });
      fill(filler);
      child.kill('SIGTERM');
      // A liveness bound, not a timing: before the fix the process never ended.
      const ended = await Promise.race([once(child, 'exit'), sleep(30_000).then(() => 'still running')]);
      expect(ended).toEqual([0, null]);
      const notice = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((l) => l.includes('droppedLogLines'))
        .map((l) => JSON.parse(l) as { droppedLogLines: number; cause: string; msg: string });
      expect(notice).toHaveLength(1);
      expect(notice[0]!.droppedLogLines).toBeGreaterThan(100);
      expect(notice[0]!.cause).toMatch(/^ENOSPC/);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      rmSync(filler, { force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
