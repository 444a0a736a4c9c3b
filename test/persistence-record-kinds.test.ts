import { appendFileSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError } from '../src/errors.js';
import { type RunningEmulator, startServer } from '../src/server.js';

// Records are checked against their kind's shape as they are read back (decision 0101): a record
// whose kind this emulator does not keep, or whose data does not fit its kind, is damage named with
// its kind and byte offset; never a crash, never a state silently built from wrong data.

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/**
 * One record as it lies on disk (decision 0080), framed here rather than by the store's encoder, as
 * a damaged file, another writer or a newer emulator would leave it: any kind, any data.
 */
function frame(k: unknown, d: unknown, bytes?: Buffer): Buffer {
  const json = Buffer.from(JSON.stringify({ k, d }), 'utf8');
  const payload = Buffer.alloc(4 + json.length + (bytes?.length ?? 0));
  payload.writeUInt32LE(json.length, 0);
  json.copy(payload, 4);
  bytes?.copy(payload, 4 + json.length);
  const head = Buffer.alloc(8);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

/** A data dir written by a real emulator (a user and a credential), closed. */
async function keptDir(): Promise<string> {
  const root = mkdtempSync(join(tmpdir(), 'reportbo-kinds-'));
  dirs.push(root);
  const dataDir = join(root, 'data');
  const emu = await startServer({ port: 0, logLevel: 'silent', dataDir });
  await fetch(`${emu.url}/__admin/users`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Ana' }),
  });
  await emu.close();
  return dataDir;
}

/** What starting on `dataDir` threw (it must throw). */
async function refusal(dataDir: string): Promise<EmulatorError> {
  let running: RunningEmulator | undefined;
  try {
    running = await startServer({ port: 0, logLevel: 'silent', dataDir });
  } catch (err) {
    return err as EmulatorError;
  } finally {
    await running?.close();
  }
  throw new Error('the emulator started on a damaged data dir');
}

describe('--data-dir records checked against their kind', () => {
  it.each([
    {
      what: 'a known kind whose data does not fit it',
      record: frame('user+', { username: 42, password: 'pw', idWeb: 7, webDescription: 'x' }),
      message: /record "user\+" whose data does not fit its kind \(field username: [^)]*\)/,
    },
    {
      what: 'a known kind whose data is not an object',
      record: frame('tok-', 'oops'),
      message: /record "tok-" whose data does not fit its kind/,
    },
    {
      what: 'an unknown kind',
      record: frame('usr+', { username: 'bo' }),
      message: /record of unknown kind "usr\+" \(did you mean "user\+"\?\)/,
    },
    {
      what: 'a reservation without its body bytes',
      record: frame('res', {
        record: {
          bookingId: 1,
          bookingNumber: 'B1',
          status: 'Issued',
          updatedAt: '2026-04-27T10:00:00Z',
          history: [],
        },
        sequence: 1,
      }),
      message: /record "res" without the body bytes its kind carries/,
    },
    {
      what: 'a notification whose body is nowhere',
      record: frame('n+', {
        id: 'n-1',
        credentialId: 'c1',
        bookingId: 9,
        bookingNumber: 'B9',
        bookingStatus: 'Issued',
        state: 'pending',
        url: 'https://receiver.example/hook',
        createdAt: '2026-04-27T10:00:00Z',
        filename: 'B9.json.gz',
        authorization: 'Bearer k',
        gzOf: 9,
      }),
      message:
        /record "n\+" that cannot be applied \(notification n-1 has no body \(reservation 9 unknown\)\)/,
    },
  ])('refuses $what in the journal, naming the kind and its byte offset', async ({ record, message }) => {
    const dataDir = await keptDir();
    const journal = join(dataDir, 'journal-0.bin');
    const offset = statSync(journal).size;
    appendFileSync(journal, record);
    appendFileSync(journal, frame('user-', { username: 'ana' })); // good records after it
    const err = await refusal(dataDir);
    expect(err).toBeInstanceOf(EmulatorError);
    expect(err.code).toBe('data_dir_corrupt');
    expect(err.message).toMatch(message);
    expect(err.message).toContain(`journal-0.bin: a record`);
    expect(err.message).toContain(`at byte ${offset} with 1 good record after it: lost 2 records`);
    // Refused, not repaired: the journal is left as it was for the user to look at.
    expect(statSync(journal).size).toBe(offset + record.length + frame('user-', { username: 'ana' }).length);
  });

  it('refuses a damaged record as the last one too: a whole record is never an interrupted write', async () => {
    const dataDir = await keptDir();
    const journal = join(dataDir, 'journal-0.bin');
    const offset = statSync(journal).size;
    appendFileSync(journal, frame('zz', {}));
    const err = await refusal(dataDir);
    expect(err.message).toMatch(
      new RegExp(
        `journal-0\\.bin: a record of unknown kind "zz" at byte ${offset} \\(the whole record is there: not a write a crash cut short\\): lost 1 record \\(zz: 1\\)`,
      ),
    );
  });

  it('refuses a snapshot holding a record that does not fit its kind, naming the snapshot and offset', async () => {
    const dataDir = await keptDir();
    const header = frame('snapshot', { generation: 1, format: 1, at: '2026-04-27T10:00:00Z' });
    const good = frame('user+', {
      username: 'bo',
      password: 'pw',
      idWeb: 1,
      webDescription: 'Bo',
      versions: ['1.7'],
    });
    const bad = frame('faults', { faults: [{ kind: 'status', id: 'f-1' }] });
    writeFileSync(join(dataDir, 'snapshot.bin'), Buffer.concat([header, good, bad]));
    writeFileSync(join(dataDir, 'journal-1.bin'), Buffer.alloc(0));
    const err = await refusal(dataDir);
    expect(err.code).toBe('data_dir_corrupt');
    expect(err.message).toMatch(
      new RegExp(
        `snapshot\\.bin: a record "faults" whose data does not fit its kind \\(field faults\\[0\\]\\.[a-z]+: [^)]*\\) at byte ${header.length + good.length}: lost the records from there on`,
      ),
    );
  });

  it('reads back a data dir whose every record fits, as before', async () => {
    const dataDir = await keptDir();
    appendFileSync(join(dataDir, 'journal-0.bin'), frame('user-', { username: 'ana' }));
    const emu = await startServer({ port: 0, logLevel: 'silent', dataDir });
    try {
      const users = (await (await fetch(`${emu.url}/__admin/users`)).json()) as { users: unknown[] };
      expect(users.users).toEqual([]);
    } finally {
      await emu.close();
    }
  });
});
