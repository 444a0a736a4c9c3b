import { createHash } from 'node:crypto';
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
import { BodyFile } from '../contract/body-file.js';
import { DataDir } from './data-dir.js';
import type { KeptRecord, OutgoingRecord } from './kinds.js';
import { DATA_DIR_FORMAT } from './read-back.js';
import { decodeRecords, encodeRecord } from './records.js';

/** A record that carries `name` (a user removed: the smallest kind). */
const named = (name: string): KeptRecord => ({ k: 'user-', d: { username: name } });
/** A record with bytes (a reservation and its gzipped body). */
const withBody = (name: string, b: Buffer): Extract<KeptRecord, { k: 'res' }> => ({
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
const nameOf = (r: KeptRecord): string =>
  r.k === 'user-' ? r.d.username : r.k === 'res' ? r.d.record.bookingNumber : r.k;

/** Decodes `buf`, answering the records with what decodeRecords said. */
function decodeAll(buf: Buffer) {
  const records: KeptRecord[] = [];
  return { ...decodeRecords(buf, (r) => records.push(r)), records };
}

/** Opens `dir`, answering the data dir and the records it read back. */
function openAll(dir: string, port: number): DataDir & { records: KeptRecord[] } {
  const records: KeptRecord[] = [];
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
    const buf = Buffer.concat([encodeRecord(named('a')), encodeRecord(withBody('b', body))]);
    const read = decodeAll(buf);
    expect(read.problem).toBeUndefined();
    expect(read.records).toEqual([named('a'), withBody('b', body)]);
  });

  it('stops at a truncated last record and calls it the last', () => {
    const one = encodeRecord(named('kept'));
    const two = encodeRecord(named('cut short'));
    const read = decodeAll(Buffer.concat([one, two.subarray(0, two.length - 3)]));
    expect(read.records).toEqual([named('kept')]);
    expect(read.goodBytes).toBe(one.length);
    expect(read.problem).toMatchObject({ offset: one.length, last: true });
  });

  it('tells damage in the middle (good records after a bad one) from a cut-off end', () => {
    const one = encodeRecord(named('1'));
    const two = encodeRecord(named('2'));
    two[two.length - 1]! ^= 0xff;
    const read = decodeAll(Buffer.concat([one, two, encodeRecord(named('3'))]));
    expect(read.problem).toMatchObject({
      offset: one.length,
      reason: 'record that fails its checksum',
      last: false,
    });
  });
});

describe('DataDir', () => {
  it('gives back what was appended after a reopen, and compaction keeps exactly the state it was given', async () => {
    const dir = fresh();
    const a = openAll(dir, 1234);
    a.append(named('1'));
    a.append(withBody('2', Buffer.from('gz')));
    a.close();
    const b = openAll(dir, 1234);
    expect(b.records).toEqual([named('1'), withBody('2', Buffer.from('gz'))]);
    await b.compactInBackground([named('3')]);
    b.append(named('4'));
    b.close();
    const c = openAll(dir, 1234);
    expect(c.records).toEqual([named('3'), named('4')]);
    c.close();
  });

  it('writes a background snapshot of bodies read from the body file, one larger than a slice, with appends made meanwhile', async () => {
    const dir = fresh();
    const bodies = new BodyFile(fresh());
    // ~1.3 KB bodies, as a gzip JSON notification is: 400 of them fill several body file slabs (most
    // are read back from the file) and several snapshot slices; one body is larger than a slice.
    const bytes = Array.from({ length: 400 }, (_, i) => Buffer.alloc(1300 + (i % 7), i % 251));
    bytes.push(Buffer.alloc(300 * 1024, 7));
    const state: OutgoingRecord[] = bytes.map((b, i) => ({
      ...withBody(`r${i}`, Buffer.alloc(0)),
      b: bodies.keep(b),
    }));
    const a = openAll(dir, 0);
    const done = a.compactInBackground([named('first'), ...state, named('last')]);
    a.append({ ...withBody('meanwhile', Buffer.alloc(0)), b: bodies.keep(Buffer.from('late body')) });
    expect(await done).toMatchObject({ records: 403 });
    a.close();
    bodies.close();
    const b = openAll(dir, 0);
    expect(b.records.map(nameOf)).toEqual(['first', ...bytes.map((_, i) => `r${i}`), 'last', 'meanwhile']);
    const read = b.records.filter((r) => r.k === 'res').map((r) => r.b);
    const expected = [...bytes, Buffer.from('late body')];
    expect(read.map((r) => r.length)).toEqual(expected.map((e) => e.length));
    // Compared as digests: vitest's deep equality walks 700 KB byte by byte.
    const digest = (x: Buffer) => createHash('sha256').update(x).digest('hex');
    expect(read.map(digest)).toEqual(expected.map(digest));
    b.close();
  });

  it('repairs a journal whose last record a crash cut short, with a notice', () => {
    const dir = fresh();
    const a = openAll(dir, 0);
    a.append(named('kept'));
    a.close();
    // What a crash in the middle of the next write leaves: part of a record after the last whole one.
    const journal = join(dir, 'journal-0.bin');
    const cut = encodeRecord(named('x'.repeat(100)));
    appendFileSync(journal, cut.subarray(0, cut.length - 10));
    const b = openAll(dir, 0);
    expect(b.records).toEqual([named('kept')]);
    expect(b.notices.join('\n')).toMatch(/repaired journal-0\.bin: dropped a truncated record/);
    b.append(named('next'));
    b.close();
    expect(openAll(dir, 0).records.map(nameOf)).toEqual(['kept', 'next']);
  });

  it('refuses a journal damaged before its end instead of dropping good records', () => {
    const dir = fresh();
    const a = openAll(dir, 0);
    a.append(named('1'));
    a.close();
    const journal = join(dir, 'journal-0.bin');
    const bytes = readFileSync(journal);
    bytes[bytes.length - 1]! ^= 0xff;
    writeFileSync(journal, bytes);
    appendFileSync(journal, encodeRecord(named('2')));
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

  it.each([
    ['a file', (file: string) => file, /EEXIST: file already exists\. Choose a directory/],
    ['a path through a file', (file: string) => join(file, 'data'), /ENOTDIR: not a directory\. Choose/],
  ])('refuses %s as the data dir, saying why without the call that failed', (_, pathOf, why) => {
    const file = join(fresh(), 'not-a-dir');
    writeFileSync(file, 'x');
    const dir = pathOf(file);
    expect(() => openAll(dir, 0)).toThrow(expect.objectContaining({ code: 'data_dir_unusable' }));
    expect(() => openAll(dir, 0)).toThrow(`Cannot use the data dir ${dir}: `);
    expect(() => openAll(dir, 0)).toThrow(why);
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
    d.lock.setPort(4321);
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
    Array.from({ length: 3000 }, (_, i): KeptRecord => named(`${tag}-${i}-${'.'.repeat(280)}`));
  const names = (records: KeptRecord[]) => records.map((r) => nameOf(r).split('-').slice(0, 2).join('-'));

  it('lets the event loop run while it writes, and keeps changes made meanwhile after the snapshot', async () => {
    const dir = fresh();
    const d = openAll(dir, 0);
    const before = state('s');
    for (const r of before) d.append(r);
    let turns = 0;
    const compacting = d.compactInBackground(before);
    // Changes made while it runs, each after a turn of the event loop.
    const during: KeptRecord[] = [];
    let finished = false;
    void compacting.then(() => {
      finished = true;
    });
    while (!finished) {
      await new Promise((r) => setImmediate(r));
      turns++;
      const rec = named(`during-${turns}`);
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
    d.append(named('old-0'));
    await d.compactInBackground([named('old-0')]);
    const before = state('s');
    for (const r of before) d.append(r);
    const compacting = d.compactInBackground([named('old-0'), ...before]);
    d.append(named('after-0'));
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
