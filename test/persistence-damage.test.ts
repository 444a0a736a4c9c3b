import { mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/server.js';
import { decodeRecords } from '../src/store/records.js';
import { runCli } from './helpers/cli.js';

// Journal repair through the real CLI (issue 31 §2, decision 0111): a journal that lost acknowledged
// records is refused with exit 2, a message naming the data dir and what was lost (no stack trace);
// --accept-data-loss starts on what is readable.

const root = mkdtempSync(join(tmpdir(), 'reportbo-damage-cli-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a data dir that lost acknowledged records', () => {
  it('is refused with exit 2 naming the loss, and --accept-data-loss starts on what is readable', async () => {
    const dataDir = join(root, 'data');
    const emu = await startServer({ port: 0, logLevel: 'silent', dataDir });
    for (const username of ['ana', 'bo'])
      expect(
        (
          await fetch(`${emu.url}/__admin/users`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ username, password: 'pw', idWeb: 7, webDescription: username }),
          })
        ).status,
      ).toBe(201);
    await emu.close();
    // The last acknowledged change (bo) cut off at its record's start: no partial record is left.
    const journal = join(dataDir, 'journal-0.bin');
    const ends: number[] = [];
    const kinds: string[] = [];
    decodeRecords(readFileSync(journal), (rec) => kinds.push(rec.k));
    let at = 0;
    const buf = readFileSync(journal);
    while (at < buf.length) {
      at += 8 + buf.readUInt32LE(at);
      ends.push(at);
    }
    truncateSync(journal, ends.at(-2)!);

    const refused = await runCli(['serve', '--port', '0', '--data-dir', dataDir]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`The data dir ${dataDir} has lost acknowledged records`);
    expect(refused.stderr).toContain(
      `journal-0.bin: cut at byte ${ends.at(-2)} (a record boundary; the checkpoint of`,
    );
    expect(refused.stderr).toMatch(new RegExp(`lost 1 record \\(${kinds.at(-1)!.replace('+', '\\+')}: 1\\)`));
    expect(refused.stderr).toContain('--accept-data-loss');
    expect(refused.stderr).not.toMatch(/^\s+at /m);

    const accepted = await startServer({ port: 0, logLevel: 'silent', dataDir, acceptDataLoss: true });
    try {
      const users = (await (await fetch(`${accepted.url}/__admin/users`)).json()) as {
        users: { username: string }[];
      };
      expect(users.users.map((u) => u.username)).toEqual(['ana']);
    } finally {
      await accepted.close();
    }
    // The loss accepted, the data dir is whole again: a plain start reads it.
    const again = await startServer({ port: 0, logLevel: 'silent', dataDir });
    await again.close();
  });
});
