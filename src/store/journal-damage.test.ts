import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EmulatorError } from '../errors.js';
import { DataDir } from './data-dir.js';
import type { KeptRecord } from './kinds.js';
import { encodeRecord } from './records.js';

/** Records of three kinds, as small as their kinds allow. */
const user = (username: string): KeptRecord => ({
  k: 'user+',
  d: { username, password: 'pw', idWeb: 1, webDescription: username, versions: ['1.7'] },
});
const change = (id: string): KeptRecord => ({ k: 'n', d: { id, state: 'pending' } });
const batch = (at: string): KeptRecord => ({ k: 'b>', d: { at } });

// Journal repair (decision 0111): damage to acknowledged records is told from the one
// thing a crash leaves (the last write cut short, after the checkpoint), the start is refused naming
// what was lost, and --accept-data-loss keeps what is readable.

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'reportbo-damage-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function openAll(dir: string, acceptDataLoss = false): DataDir & { records: KeptRecord[] } {
  const records: KeptRecord[] = [];
  return Object.assign(
    DataDir.open(dir, 0, (r) => records.push(r), { acceptDataLoss }),
    { records },
  );
}

/** The refusal opening `dir` throws (fails the test when it opens). */
function refusal(dir: string): EmulatorError {
  try {
    openAll(dir).close();
  } catch (err) {
    expect(err).toBeInstanceOf(EmulatorError);
    expect((err as EmulatorError).category).toBe('user_input');
    expect((err as EmulatorError).message).toContain(dir);
    expect((err as EmulatorError).message).toMatch(/--accept-data-loss/);
    return err as EmulatorError;
  }
  throw new Error(`opening ${dir} did not refuse`);
}

/** A data dir holding six records (user+ ×2, n ×3, b> ×1), closed cleanly; answers the record ends. */
function written(dir: string): number[] {
  const d = openAll(dir);
  const ends: number[] = [];
  let at = 0;
  for (const rec of [
    user('ana'),
    user('bo'),
    change('n-1'),
    change('n-2'),
    batch('2026-04-27T10:55:00.000Z'),
    change('n-3'),
  ]) {
    d.append(rec);
    at += encodeRecord(rec).length;
    ends.push(at);
  }
  d.close();
  return ends;
}

describe('journal damage is told from an interrupted write', () => {
  it('accepts the last write a crash cut short, as before: a notice, the whole records kept', () => {
    const dir = fresh();
    written(dir);
    const journal = join(dir, 'journal-0.bin');
    const partial = encodeRecord(change('n-4'));
    appendFileSync(journal, partial.subarray(0, partial.length - 7));
    const d = openAll(dir);
    expect(d.records.map((r) => r.k)).toEqual(['user+', 'user+', 'n', 'n', 'b>', 'n']);
    expect(d.notices.join('\n')).toMatch(
      /repaired journal-0\.bin: dropped a truncated record .*never acknowledged/,
    );
    d.close();
  });

  it('accepts blocks a power cut left unwritten after the checkpoint (zeros after the last record)', () => {
    const dir = fresh();
    written(dir);
    appendFileSync(join(dir, 'journal-0.bin'), Buffer.alloc(64));
    const d = openAll(dir);
    expect(d.records).toHaveLength(6);
    d.close();
  });

  it('refuses a full-length last record that fails its checksum, naming the record lost', () => {
    const dir = fresh();
    const ends = written(dir);
    const journal = join(dir, 'journal-0.bin');
    const bytes = readFileSync(journal);
    bytes[bytes.length - 4]! ^= 0x01; // pending becomes pendinf: its kind still reads
    writeFileSync(journal, bytes);
    const err = refusal(dir);
    expect(err.message).toContain(
      `journal-0.bin: a record that fails its checksum at byte ${ends[4]} (the whole record is there: not a write a crash cut short): lost 1 record (n: 1)`,
    );
    expect(err.details).toMatchObject({ dataDir: dir });
  });

  it('refuses a journal cut in the middle of a record, counting what the checkpoint named', () => {
    const dir = fresh();
    const ends = written(dir);
    truncateSync(join(dir, 'journal-0.bin'), ends[2]! + 5);
    expect(refusal(dir).message).toMatch(
      new RegExp(
        `journal-0\\.bin: a truncated record [^)]*\\) at byte ${ends[2]} \\(the checkpoint of \\S+ names ${ends[5]} bytes: the file was cut\\): lost 3 records \\(n: 2, b>: 1\\)`,
      ),
    );
  });

  it('refuses a journal cut at a record boundary', () => {
    const dir = fresh();
    const ends = written(dir);
    truncateSync(join(dir, 'journal-0.bin'), ends[1]);
    expect(refusal(dir).message).toMatch(
      new RegExp(
        `journal-0\\.bin: cut at byte ${ends[1]} \\(a record boundary; the checkpoint of \\S+ names ${ends[5]} bytes\\): lost 4 records \\(n: 3, b>: 1\\)`,
      ),
    );
  });

  it('refuses a deleted journal beside format.json, with a checkpoint and without one (an older data dir)', () => {
    const dir = fresh();
    written(dir);
    unlinkSync(join(dir, 'journal-0.bin'));
    expect(refusal(dir).message).toMatch(
      /journal-0\.bin is missing: lost its 6 records \(user\+: 2, n: 3, b>: 1\) \(\d+ bytes at the checkpoint of /,
    );
    unlinkSync(join(dir, 'checkpoint.json'));
    expect(refusal(dir).message).toMatch(
      /journal-0\.bin is missing: lost every record it held \(how many is unknown/,
    );
  });

  it('refuses a later journal of a background compaction that went missing', async () => {
    const dir = fresh();
    const d = openAll(dir);
    d.append(change('1'));
    // Journal 1 starts at once; the snapshot is renamed a few turns later: close before that.
    const compaction = d.compactInBackground([change('1')]);
    d.append(change('2'));
    d.close();
    await compaction;
    expect(existsSync(join(dir, 'journal-1.bin'))).toBe(true);
    expect(existsSync(join(dir, 'journal-0.bin'))).toBe(true);
    unlinkSync(join(dir, 'journal-1.bin'));
    expect(refusal(dir).message).toMatch(/journal-1\.bin is missing: lost its 1 record \(n: 1\)/);
  });

  it('refuses a journal whose checkpoint is missing or damaged (it cannot prove nothing was cut from its end)', () => {
    const dir = fresh();
    written(dir);
    writeFileSync(join(dir, 'checkpoint.json'), '{');
    expect(refusal(dir).message).toMatch(
      /checkpoint\.json is damaged \([^)]*\): whether acknowledged records were cut from the end of journal-0\.bin \(6 records, \d+ bytes\) cannot be checked/,
    );
    unlinkSync(join(dir, 'checkpoint.json'));
    expect(refusal(dir).message).toMatch(/checkpoint\.json is missing: whether acknowledged records/);
    const accepted = openAll(dir, true);
    expect(accepted.records).toHaveLength(6);
    accepted.close();
    openAll(dir).close();
  });

  it('starts a data dir whose first start was cut before its checkpoint (nothing in its journal)', () => {
    const dir = fresh();
    openAll(dir).close();
    unlinkSync(join(dir, 'checkpoint.json'));
    const d = openAll(dir);
    expect(d.records).toEqual([]);
    d.close();
  });

  it('reads a data dir of an older emulator (format 1, no checkpoint) as before, and checks it from then on', () => {
    const dir = fresh();
    const ends = written(dir);
    unlinkSync(join(dir, 'checkpoint.json'));
    writeFileSync(join(dir, 'format.json'), '{"format":1}\n');
    const d = openAll(dir);
    expect(d.records).toHaveLength(6);
    d.close();
    truncateSync(join(dir, 'journal-0.bin'), ends[3]);
    expect(refusal(dir).message).toMatch(/cut at byte \d+ \(a record boundary/);
  });

  it('--accept-data-loss keeps what is readable, keeps the damaged file beside, says what was lost, and goes on', () => {
    const dir = fresh();
    const ends = written(dir);
    const journal = join(dir, 'journal-0.bin');
    const bytes = readFileSync(journal);
    bytes[ends[1]! + 20]! ^= 0xff; // inside the third record, good ones after it
    writeFileSync(journal, bytes);
    refusal(dir);
    const d = openAll(dir, true);
    expect(d.records.map((r) => r.k)).toEqual(['user+', 'user+']);
    expect(d.notices.join('\n')).toMatch(
      new RegExp(
        `accepted a loss \\(--accept-data-loss\\): journal-0\\.bin: a record that fails its checksum at byte ${ends[1]} with 3 good records after it: lost 4 records \\(n: 3, b>: 1\\)`,
      ),
    );
    const aside = readdirSync(dir).filter((f) => f.startsWith('journal-0.bin.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!))).toEqual(bytes);
    d.append(change('n-5'));
    d.close();
    const again = openAll(dir);
    expect(again.records.map((r) => r.k)).toEqual(['user+', 'user+', 'n']);
    expect(again.notices).toEqual([]);
    again.close();
  });

  it('--accept-data-loss on a deleted journal starts with what the snapshot holds', async () => {
    const dir = fresh();
    const d = openAll(dir);
    await d.compactInBackground([user('ana')]);
    d.append(change('1'));
    d.close();
    unlinkSync(join(dir, 'journal-1.bin'));
    refusal(dir);
    const e = openAll(dir, true);
    expect(e.records).toEqual([user('ana')]);
    expect(e.notices.join('\n')).toMatch(/journal-1\.bin is missing: lost its 1 record \(n: 1\)/);
    e.close();
    openAll(dir).close();
  });
});
