import { mkdtempSync, readFileSync, rmSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { adminCall } from './helpers/admin-call.js';
import { DataDirServe } from './helpers/data-dir-serve.js';

// Issue 43 §5, through the real CLI (dist/): a journal whose checkpoint is missing or damaged
// cannot prove that no acknowledged record was cut from its end, so the start is refused with
// exit 2 and --accept-data-loss offered, never a silent start without the lost records.

const root = mkdtempSync(join(tmpdir(), 'reportbo-checkpoint-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const user = (i: number) => ({
  username: `user-${i}`,
  password: 'pw',
  idWeb: i,
  webDescription: `User ${i}`,
});

/** The byte offsets where each record of `file` ends. */
function recordEnds(file: string): number[] {
  const buf = readFileSync(file);
  const ends: number[] = [];
  for (let at = 0; at < buf.length; ) {
    at += 8 + buf.readUInt32LE(at);
    ends.push(at);
  }
  return ends;
}

describe.each([
  ['missing', (file: string) => unlinkSync(file)],
  ['damaged', (file: string) => writeFileSync(file, '{"at": "2026-')],
])('a journal cut at a record boundary whose checkpoint is %s', (_name, spoil) => {
  it('is refused with exit 2 (after kill -9), and --accept-data-loss starts on what is there, saying so', async () => {
    const dataDir = join(root, `data-${_name}`);
    const emu = new DataDirServe(dataDir, ['--clock', 'manual']);
    await emu.start();
    for (let i = 0; i < 20; i++) expect((await adminCall(emu, 'POST', '/users', user(i))).status).toBe(201);
    await emu.kill();
    const journal = join(dataDir, 'journal-0.bin');
    const ends = recordEnds(journal);
    // The last 9 users cut away at a record boundary, and the checkpoint that names them spoilt.
    truncateSync(journal, ends.at(-10)!);
    spoil(join(dataDir, 'checkpoint.json'));

    // Today's build started here, without the 9 users and without a word.
    const refused = new DataDirServe(dataDir, ['--clock', 'manual']);
    await expect(refused.start()).rejects.toThrow(/exited with 2/);
    const said = refused.output();
    expect(said).toContain(`The data dir ${dataDir} has lost acknowledged records`);
    expect(said).toMatch(/checkpoint\.json is (missing|damaged)/);
    expect(said).toContain('--accept-data-loss');
    expect(said).not.toMatch(/^\s+at /m);

    const accepted = new DataDirServe(dataDir, ['--clock', 'manual', '--accept-data-loss']);
    await accepted.start();
    const users = (await adminCall<{ users: unknown[] }>(accepted, 'GET', '/users')).body.users;
    expect(users).toHaveLength(11);
    expect(accepted.output()).toMatch(/accepted a loss \(--accept-data-loss\): checkpoint\.json/);
    expect(await accepted.stop()).toBe(0);
    // Accepted once, whole again: a plain start reads it.
    const again = new DataDirServe(dataDir, ['--clock', 'manual']);
    await again.start();
    expect((await adminCall<{ users: unknown[] }>(again, 'GET', '/users')).body.users).toHaveLength(11);
    await again.stop();
  });
});
