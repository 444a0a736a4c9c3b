import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DATA_DIR_FORMAT, DataDir } from './data-dir.js';
import { decodeRecords, encodeRecord, type StoreRecord } from './records.js';

/** Decodes `buf`, answering the records with what decodeRecords said. */
function decodeAll(buf: Buffer) {
  const records: StoreRecord[] = [];
  return { ...decodeRecords(buf, (r) => records.push(r)), records };
}

/** Opens `dir`, answering the data dir and the records it read back. */
function openAll(dir: string, port: number): DataDir & { records: StoreRecord[] } {
  const records: StoreRecord[] = [];
  return Object.assign(
    DataDir.open(dir, port, (r) => records.push(r)),
    { records },
  );
}

const dirs: string[] = [];
const fresh = () => {
  const d = mkdtempSync(join(tmpdir(), 'reportbo-store-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('records', () => {
  it('reads back kind, data and raw bytes as written', () => {
    const body = Buffer.from([0x1f, 0x8b, 0, 255, 7]);
    const buf = Buffer.concat([
      encodeRecord({ k: 'a', d: { x: 1 } }),
      encodeRecord({ k: 'b', d: [2], b: body }),
    ]);
    const read = decodeAll(buf);
    expect(read.problem).toBeUndefined();
    expect(read.records).toEqual([
      { k: 'a', d: { x: 1 } },
      { k: 'b', d: [2], b: body },
    ]);
  });

  it('stops at a truncated last record and calls it the last', () => {
    const one = encodeRecord({ k: 'a', d: 'kept' });
    const two = encodeRecord({ k: 'b', d: 'cut short' });
    const read = decodeAll(Buffer.concat([one, two.subarray(0, two.length - 3)]));
    expect(read.records).toEqual([{ k: 'a', d: 'kept' }]);
    expect(read.goodBytes).toBe(one.length);
    expect(read.problem).toMatchObject({ offset: one.length, last: true });
  });

  it('tells damage in the middle (good records after a bad one) from a cut-off end', () => {
    const one = encodeRecord({ k: 'a', d: 1 });
    const two = encodeRecord({ k: 'b', d: 2 });
    two[two.length - 1]! ^= 0xff;
    const read = decodeAll(Buffer.concat([one, two, encodeRecord({ k: 'c', d: 3 })]));
    expect(read.problem).toMatchObject({
      offset: one.length,
      reason: 'record that fails its checksum',
      last: false,
    });
  });
});

describe('DataDir', () => {
  it('gives back what was appended after a reopen, and compaction keeps exactly the state it was given', () => {
    const dir = fresh();
    const a = openAll(dir, 1234);
    a.append({ k: 'x', d: 1 });
    a.append({ k: 'y', d: 2, b: Buffer.from('gz') });
    a.close();
    const b = openAll(dir, 1234);
    expect(b.records).toEqual([
      { k: 'x', d: 1 },
      { k: 'y', d: 2, b: Buffer.from('gz') },
    ]);
    b.compact([{ k: 'z', d: 3 }]);
    b.append({ k: 'after', d: 4 });
    b.close();
    const c = openAll(dir, 1234);
    expect(c.records).toEqual([
      { k: 'z', d: 3 },
      { k: 'after', d: 4 },
    ]);
    c.close();
  });

  it('repairs a journal whose last record a crash cut short, with a notice', () => {
    const dir = fresh();
    const a = openAll(dir, 0);
    a.append({ k: 'kept', d: 1 });
    a.close();
    // What a crash in the middle of the next write leaves: part of a record after the last whole one.
    const journal = join(dir, 'journal-0.bin');
    const cut = encodeRecord({ k: 'cut', d: 'x'.repeat(100) });
    appendFileSync(journal, cut.subarray(0, cut.length - 10));
    const b = openAll(dir, 0);
    expect(b.records).toEqual([{ k: 'kept', d: 1 }]);
    expect(b.notices.join('\n')).toMatch(/repaired journal-0\.bin: dropped a truncated record/);
    b.append({ k: 'next', d: 2 });
    b.close();
    expect(openAll(dir, 0).records.map((r) => r.k)).toEqual(['kept', 'next']);
  });

  it('refuses a journal damaged before its end instead of dropping good records', () => {
    const dir = fresh();
    const a = openAll(dir, 0);
    a.append({ k: 'a', d: 1 });
    a.close();
    const journal = join(dir, 'journal-0.bin');
    const bytes = readFileSync(journal);
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(journal, bytes);
    appendFileSync(journal, encodeRecord({ k: 'b', d: 2 }));
    expect(() => openAll(dir, 0)).toThrow(
      /fails its checksum at byte 0 with 1 good record after it: lost 2 records/,
    );
  });

  it('refuses a data dir written by a newer format, naming both versions', () => {
    const dir = fresh();
    writeFileSync(join(dir, 'format.json'), JSON.stringify({ format: DATA_DIR_FORMAT + 1 }));
    expect(() => openAll(dir, 0)).toThrow(
      `was written by a newer emulator (format ${DATA_DIR_FORMAT + 1}; this one reads format ${DATA_DIR_FORMAT} and older)`,
    );
  });

  it('refuses a second opener while the first holds the lock, naming pid, host and port', () => {
    const dir = fresh();
    const first = openAll(dir, 4321);
    // Another live process's lock (this process's parent), as a second emulator would find it.
    writeFileSync(
      join(dir, 'lock.json'),
      JSON.stringify({
        pid: process.ppid,
        host: hostname(),
        port: 4321,
        startedAt: '2026-11-24T10:00:00.000Z',
      }),
    );
    expect(() => openAll(dir, 0)).toThrow(
      `in use by another emulator (pid ${process.ppid} on ${hostname()}, port 4321`,
    );
    first.close();
  });

  it('refuses a second opener in the same process while the first holds the lock', () => {
    const dir = fresh();
    const first = openAll(dir, 4321);
    expect(() => openAll(dir, 0)).toThrow(`in use by another emulator (pid ${process.pid} on ${hostname()}`);
    first.close();
  });

  it("takes over a lock naming this process's pid that this process does not hold (a restarted container's pid 1)", () => {
    const dir = fresh();
    writeFileSync(
      join(dir, 'lock.json'),
      JSON.stringify({
        pid: process.pid,
        host: hostname(),
        port: 8080,
        startedAt: '2026-11-24T10:00:00.000Z',
      }),
    );
    const d = openAll(dir, 0);
    expect(d.notices[0]).toMatch(new RegExp(`took over a stale lock of pid ${process.pid} `));
    d.close();
  });

  it('takes over a lock whose pid now runs another process (its start time differs)', () => {
    const dir = fresh();
    writeFileSync(
      join(dir, 'lock.json'),
      JSON.stringify({
        pid: process.ppid,
        host: hostname(),
        port: 8080,
        startedAt: '2026-11-24T10:00:00.000Z',
        procStart: '1',
      }),
    );
    const d = openAll(dir, 0);
    expect(d.notices[0]).toMatch(new RegExp(`took over a stale lock of pid ${process.ppid} `));
    d.close();
  });

  it('takes over a lock whose process is gone, with a notice', () => {
    const dir = fresh();
    writeFileSync(
      join(dir, 'lock.json'),
      JSON.stringify({
        pid: 2 ** 22 + 12345,
        host: hostname(),
        port: 8080,
        startedAt: '2026-11-24T10:00:00.000Z',
      }),
    );
    const d = openAll(dir, 0);
    expect(d.notices[0]).toMatch(/took over a stale lock of pid 4206649 \(no longer running; port 8080/);
    expect(JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8')).pid).toBe(process.pid);
    d.close();
  });

  it.each([
    ['empty', ''],
    ['half-written', '{"pid":12'],
    ['without a pid', '{"host":"x"}'],
  ])(
    'treats a lock file that is %s as held (a lock being written), naming the file and how to remove it',
    (_, text) => {
      const dir = fresh();
      writeFileSync(join(dir, 'lock.json'), text);
      expect(() => openAll(dir, 0)).toThrow(
        `${join(dir, 'lock.json')} cannot be read as a lock: another emulator may be writing it.`,
      );
      expect(() => openAll(dir, 0)).toThrow(`delete ${join(dir, 'lock.json')}`);
      expect(readFileSync(join(dir, 'lock.json'), 'utf8')).toBe(text);
    },
  );

  it('writes the lock whole and leaves no temporary file beside it', () => {
    const dir = fresh();
    const d = openAll(dir, 0);
    d.setPort(4321);
    expect(JSON.parse(readFileSync(join(dir, 'lock.json'), 'utf8'))).toMatchObject({
      pid: process.pid,
      port: 4321,
    });
    expect(readdirSync(dir).filter((f) => f.includes('lock'))).toEqual(['lock.json']);
    d.close();
    expect(readdirSync(dir).filter((f) => f.includes('lock'))).toEqual([]);
  });
});

describe('compaction in the background', () => {
  /** 3,000 records of ~300 bytes: more than one slice, so the compaction yields. */
  const state = (tag: string) =>
    Array.from({ length: 3000 }, (_, i): StoreRecord => ({ k: 'x', d: `${tag}-${i}-${'.'.repeat(280)}` }));
  const names = (records: StoreRecord[]) => records.map((r) => String(r.d).split('-').slice(0, 2).join('-'));

  it('lets the event loop run while it writes, and keeps changes made meanwhile after the snapshot', async () => {
    const dir = fresh();
    const d = openAll(dir, 0);
    const before = state('s');
    for (const r of before) d.append(r);
    let turns = 0;
    const compacting = d.compactInBackground(before);
    // Changes made while it runs, each after a turn of the event loop.
    const during: StoreRecord[] = [];
    let finished = false;
    void compacting.then(() => {
      finished = true;
    });
    while (!finished) {
      await new Promise((r) => setImmediate(r));
      turns++;
      const rec = { k: 'x', d: `during-${turns}` };
      during.push(rec);
      d.append(rec);
    }
    expect(await compacting).toMatchObject({ records: 3000 });
    expect(turns).toBeGreaterThan(1);
    d.close();
    const back = openAll(dir, 0);
    expect(names(back.records)).toEqual(names([...before, ...during]));
    expect(readdirSync(dir).filter((f) => f.startsWith('journal-') || f.startsWith('snapshot'))).toEqual([
      'journal-1.bin',
      'snapshot.bin',
    ]);
    back.close();
  });

  it('a crash before its rename leaves snapshot N with journals N and N+1, read back in order', async () => {
    const dir = fresh();
    const copy = fresh();
    const d = openAll(dir, 0);
    d.append({ k: 'x', d: 'old-0' });
    d.compact([{ k: 'x', d: 'old-0' }]);
    const before = state('s');
    for (const r of before) d.append(r);
    const compacting = d.compactInBackground([{ k: 'x', d: 'old-0' }, ...before]);
    d.append({ k: 'x', d: 'after-0' });
    await new Promise((r) => setImmediate(r));
    // The files as a kill -9 now would leave them (the snapshot's temporary file is dropped at start).
    cpSync(dir, copy, { recursive: true });
    await compacting;
    d.close();
    expect(
      readdirSync(copy)
        .filter((f) => /^journal-\d+\.bin$/.test(f))
        .sort(),
    ).toEqual(['journal-1.bin', 'journal-2.bin']);
    const back = openAll(copy, 0);
    expect(names(back.records)).toEqual(['old-0', ...names(before), 'after-0']);
    back.close();
  });
});
