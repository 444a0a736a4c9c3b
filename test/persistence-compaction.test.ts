import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { adminCall } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';

// Issue 43 §3, through the real CLI (dist/): a background compaction that a crash cut off leaves
// the snapshot's journal sealed beside the next one; a later start must compact them (in the
// background), so repeated crashes never let sealed journals pile up.

const root = mkdtempSync(join(tmpdir(), 'reportbo-compaction-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const user = (i: number) => ({
  username: `user-${i}`,
  password: 'pw',
  idWeb: i,
  webDescription: `User ${i}`.padEnd(200, '.'),
});

const journals = (dir: string) => readdirSync(dir).filter((f) => /^journal-\d+\.bin$/.test(f));
const bytesIn = (dir: string) => readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);

/** Waits until `done()` holds, checking every 50 ms; fails naming `what` after `timeoutMs`. */
async function until(done: () => boolean, what: string, timeoutMs = WAIT_DEADLINE_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/**
 * What `kill -9` leaves in the middle of a background compaction of generation `g`: journal g
 * sealed, journal g+1 started, the new snapshot half written (decision 0127).
 */
function cutCompaction(dataDir: string, g: number): void {
  writeFileSync(join(dataDir, `journal-${g + 1}.bin`), '');
  writeFileSync(join(dataDir, `snapshot.bin.${g + 1}.tmp`), Buffer.alloc(4096, 0x61));
}

describe('compaction after a crash', () => {
  it('a start finds a sealed journal and compacts it in the background; repeated kills keep the data dir bounded', async () => {
    const dataDir = join(root, 'data');
    const emu = new DataDirServe(dataDir, ['--clock', 'manual']);
    await emu.start();
    for (let i = 0; i < 300; i++) expect((await adminCall(emu, 'POST', '/users', user(i))).status).toBe(201);
    await emu.kill();
    const written = bytesIn(dataDir);
    cutCompaction(dataDir, 0);

    await emu.start();
    // The sealed journal 0 is folded into a snapshot without a write asking for it.
    await until(
      () => existsSync(join(dataDir, 'snapshot.bin')) && !existsSync(join(dataDir, 'journal-0.bin')),
      'a compaction of the sealed journal-0.bin',
    ).catch((err: Error) => {
      throw new Error(`${err.message}: ${readdirSync(dataDir).join(', ')}\n${emu.output()}`);
    });
    expect((await adminCall<{ users: unknown[] }>(emu, 'GET', '/users')).body.users).toHaveLength(300);

    // Killed again and again, each time in the middle of the compaction the start begins.
    const sizes: number[] = [];
    for (let round = 0; round < 8; round++) {
      await emu.kill();
      const g = Math.max(...journals(dataDir).map((f) => Number(/\d+/.exec(f)![0])));
      cutCompaction(dataDir, g);
      await emu.start();
      await emu.kill();
      sizes.push(bytesIn(dataDir));
    }
    await emu.start();
    await until(() => journals(dataDir).length === 1, 'the compaction that catches up');
    expect((await adminCall<{ users: unknown[] }>(emu, 'GET', '/users')).body.users).toHaveLength(300);
    // Bounded by what was written, not by the number of kills: the users' records twice over at most
    // (a snapshot and the sealed journal), what each start writes itself, a half-written snapshot.
    for (const size of sizes) expect(size).toBeLessThan(2 * written + 8 * 2048 + 4096);
    console.info(
      `persistence-compaction: data dir ${written} bytes written, after each kill ${sizes.join(', ')}; starts (ms) ${emu.startMs.map(Math.round).join(', ')}`,
    );
    await emu.stop();
  });
});
