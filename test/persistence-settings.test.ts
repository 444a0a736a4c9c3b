import { mkdtempSync, readdirSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminCall } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { fillFileSystem, mountSmallDisk, unmountSmallDisk } from './helpers/fill.js';
import { http } from './helpers/http.js';

// Issue 43 §4: every setting and state survives a restart exactly, through the real CLI (dist/).

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function dataDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'reportbo-settings-'));
  dirs.push(d);
  return join(d, 'data');
}

const USER = { username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Ana' };

/** `n` GetAccessToken calls (JSON, API 1.6), `parallel` at a time. */
async function calls(url: string, n: number, parallel = 16): Promise<void> {
  let next = 0;
  const one = async () => {
    while (next < n) {
      next++;
      const res = await http(`${url}/api/1.6/FlightService.json/GetAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'ana', password: 'pw' }),
      });
      expect(res.status).toBe(200);
    }
  };
  await Promise.all(Array.from({ length: parallel }, one));
}

/** How many calls the journal lists: the `total` of its page (decision 0236). */
const listed = async (url: string) =>
  (await adminCall<{ total: number }>({ url }, 'GET', '/requests')).body.total;

const bytesIn = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);

describe('the journal of GetAccessToken calls across a restart', () => {
  it('keeps as many entries as --journal-entries says, past the default, after SIGTERM and kill -9', async () => {
    const emu = new DataDirServe(dataDir(), ['--clock', 'manual', '--journal-entries', '20000']);
    await emu.start();
    await adminCall(emu, 'POST', '/users', USER);
    await calls(emu.url, 11_000);
    expect(await listed(emu.url)).toBe(11_000);
    expect(await emu.stop()).toBe(0);
    await emu.start();
    expect(await listed(emu.url)).toBe(11_000);
    await emu.kill();
    await emu.start();
    expect(await listed(emu.url)).toBe(11_000);
    await emu.stop();
  });

  it('keeps nothing of the calls on disk with --journal-entries 0', async () => {
    const dir = dataDir();
    const off = new DataDirServe(dir, ['--clock', 'manual', '--journal-entries', '0']);
    await off.start();
    await adminCall(off, 'POST', '/users', USER);
    const before = bytesIn(dir);
    await calls(off.url, 200);
    expect(await listed(off.url)).toBe(0);
    const grown = bytesIn(dir) - before;
    await off.kill();
    // The same data dir with the journal on: nothing of those calls was kept to read back.
    const on = new DataDirServe(dir, ['--clock', 'manual', '--journal-entries', '1000']);
    await on.start();
    expect(await listed(on.url)).toBe(0);
    await calls(on.url, 200);
    expect(await listed(on.url)).toBe(200);
    await on.kill();
    // What the calls still write is their tokens (GET /tokens reads them back), less than with the journal.
    const on2 = new DataDirServe(dir, ['--clock', 'manual', '--journal-entries', '1000']);
    await on2.start();
    const start = bytesIn(dir);
    await calls(on2.url, 200);
    expect(bytesIn(dir) - start).toBeGreaterThan(grown + 200 * 100);
    await on2.stop();
  });
});

/** Why a small file system could not be mounted (not root, no mount permission). */
const root = mkdtempSync(join(tmpdir(), 'reportbo-settings-full-'));
const cannotMount = mountSmallDisk(root);
if (cannotMount) console.warn(`persistence-settings: the full-disk test is skipped: ${cannotMount}`);
afterAll(() => {
  if (!cannotMount) unmountSmallDisk(root);
  rmSync(root, { recursive: true, force: true });
});

describe.skipIf(cannotMount !== undefined)('a clock move the data dir cannot keep', () => {
  it('is refused with 503 like every other write, and the clock stays where it was, now and after a restart', async () => {
    const emu = new DataDirServe(join(root, 'data'), [
      '--clock',
      'manual',
      '--clock-start',
      '2026-04-27T10:00:00Z',
    ]);
    await emu.start();
    const filler = join(root, 'filler');
    fillFileSystem(filler);
    // The journal's last page still takes small records: clearing the faults (one of the smallest)
    // until the disk refuses it leaves no room for any record.
    let refused = 0;
    for (let i = 0; i < 500 && refused === 0; i++)
      if ((await adminCall(emu, 'DELETE', '/faults')).status === 503) refused++;
    expect(refused).toBe(1);
    const moved = await adminCall(emu, 'POST', '/clock/advance', { by: 'PT2H' });
    expect(moved.status).toBe(503);
    expect(moved.body).toMatchObject({ error: { code: 'data_dir_unwritable' } });
    const clock = await adminCall<{ now: string }>(emu, 'GET', '/clock');
    expect(clock.body.now).toBe('2026-04-27T10:00:00.000Z');
    unlinkSync(filler);
    await emu.kill();
    await emu.start();
    expect((await adminCall<{ now: string }>(emu, 'GET', '/clock')).body.now).toBe(
      '2026-04-27T10:00:00.000Z',
    );
    // With room again, a move is kept.
    expect((await adminCall(emu, 'POST', '/clock/advance', { by: 'PT2H' })).status).toBe(200);
    await emu.kill();
    await emu.start();
    expect((await adminCall<{ now: string }>(emu, 'GET', '/clock')).body.now).toBe(
      '2026-04-27T12:00:00.000Z',
    );
    await emu.stop();
  });
});
