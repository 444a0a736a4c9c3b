import {
  closeSync,
  existsSync,
  fdatasyncSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { DataDirUnwritableError, EmulatorError } from '../errors.js';
import type { KeptRecord } from './kinds.js';
import { DirLock, LOCK_FILE } from './lock.js';
import { decodeRecords, encodeRecord, type StoreRecord } from './records.js';

/** The on-disk format this code writes and reads (`format.json`); a newer one is refused. */
export const DATA_DIR_FORMAT = 1;
const FORMAT_FILE = 'format.json';
const SNAPSHOT_FILE = 'snapshot.bin';
/** The journal grows to at least this before it is compacted into a snapshot. */
export const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/** How much of a snapshot a background compaction encodes and writes before it yields. */
const COMPACT_SLICE_BYTES = 256 * 1024;
/** How often written records are flushed to the disk itself (fdatasync): a power cut loses at most this. */
export const SYNC_INTERVAL_MS = 1000;

const journalName = (generation: number) => `journal-${generation}.bin`;

/**
 * A data dir (decision 0080): `format.json`, `lock.json`, `snapshot.bin` (generation N, every state
 * record at one instant) and `journal-N.bin` (every change since, appended). Opening it takes the
 * lock, reads both files back and repairs a truncated last record; `append` writes one record to the OS
 * before it returns, so an admin answer sent after it survives `kill -9`.
 */
export class DataDir {
  readonly notices: string[] = [];
  #generation: number;
  #fd: number;
  #journalBytes: number;
  #snapshotBytes: number;
  #dirty = false;
  /** A failed write may have left part of a record after #journalBytes: cut it before the next one. */
  #unclean = false;
  #failure: DataDirFailure | undefined;
  /** The background compaction running now (a token: a synchronous one replaces it). */
  #compacting: object | undefined;
  readonly #timer: NodeJS.Timeout;
  #closed = false;

  private constructor(
    readonly dir: string,
    private readonly lock: DirLock,
    onRecord: (rec: KeptRecord) => void,
  ) {
    const format = readFormat(dir);
    const snapshotFile = join(dir, SNAPSHOT_FILE);
    this.#generation = 0;
    this.#snapshotBytes = 0;
    if (existsSync(snapshotFile)) {
      const buf = readFileSync(snapshotFile);
      const read = decodeRecords(buf, onRecord, 'header');
      // A snapshot is written to a temporary file, synced and renamed: a bad one is not a crash case.
      if (read.problem || !read.header)
        throw storeError(
          'data_dir_corrupt',
          `${snapshotFile} is damaged (${read.problem?.reason ?? 'no header record'} at byte ${read.problem?.offset ?? 0}). Move the data dir away to start empty, or restore it from a backup.`,
        );
      this.#generation = read.header.d.generation;
      this.#snapshotBytes = buf.length;
    }
    // The snapshot's journal, then any later ones: a compaction in the background starts journal N+1
    // before its snapshot is renamed into place, so a crash meanwhile leaves journals N and N+1
    // beside snapshot N, read in order.
    const snapshotGeneration = this.#generation;
    this.#journalBytes = 0;
    for (let g = snapshotGeneration; existsSync(join(dir, journalName(g))); g++) {
      const journalFile = join(dir, journalName(g));
      const buf = readFileSync(journalFile);
      const read = decodeRecords(buf, onRecord);
      const last = !existsSync(join(dir, journalName(g + 1)));
      if (read.problem?.damaged)
        throw storeError(
          'data_dir_corrupt',
          `${journalFile} has a ${read.problem.reason} at byte ${read.problem.offset}: a whole record (its checksum is good), so damage or a newer emulator's record, not an interrupted write. Move the data dir away to start empty, or restore it from a backup.`,
        );
      if (read.problem) {
        if (!read.problem.last || !last)
          throw storeError(
            'data_dir_corrupt',
            `${journalFile} has a ${read.problem.reason} at byte ${read.problem.offset} with good records after it: that is damage, not an interrupted write. Move the data dir away to start empty, or restore it from a backup.`,
          );
        const fd = openSync(journalFile, 'r+');
        ftruncateSync(fd, read.goodBytes);
        fsyncSync(fd);
        closeSync(fd);
        this.notices.push(
          `data dir ${dir}: repaired ${journalName(g)}: dropped a ${read.problem.reason} at byte ${read.problem.offset} (${buf.length - read.goodBytes} bytes; the write a crash interrupted, never acknowledged)`,
        );
      }
      this.#generation = g;
      this.#journalBytes = read.goodBytes;
    }
    // Journals of older generations are leftovers of a compaction a crash interrupted after the rename.
    for (const f of readdirSync(dir)) {
      const journal = /^journal-(\d+)\.bin$/.exec(f);
      if (journal && Number(journal[1]) < snapshotGeneration) unlinkSync(join(dir, f));
      // Another opener's lock being written is its own to remove.
      if (f.endsWith('.tmp') && !f.startsWith(LOCK_FILE)) unlinkSync(join(dir, f));
    }
    const journalFile = join(dir, journalName(this.#generation));
    if (format === undefined) writeFormat(dir);
    this.#fd = openSync(journalFile, 'a');
    this.#timer = setInterval(() => this.sync(), SYNC_INTERVAL_MS);
    this.#timer.unref();
  }

  /**
   * Opens (creating it if needed) and locks `dir`, handing every record read back to `onRecord`,
   * oldest first (the snapshot's, then the journal's); `port` goes into the lock file.
   */
  static open(dir: string, port: number, onRecord: (rec: KeptRecord) => void): DataDir {
    try {
      mkdirSync(dir, { recursive: true });
    } catch (err) {
      throw storeError(
        'data_dir_unusable',
        `Cannot create the data dir ${dir}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. Choose a writable directory (--data-dir, REPORTBO_DATA_DIR).`,
      );
    }
    readFormat(dir); // refuses a newer format before taking the lock
    let taken: ReturnType<typeof DirLock.take>;
    try {
      taken = DirLock.take(dir, port);
    } catch (err) {
      if (err instanceof EmulatorError) throw err;
      throw storeError(
        'data_dir_unusable',
        `Cannot write the lock ${join(dir, LOCK_FILE)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}. The data dir must be writable by this user.`,
      );
    }
    try {
      const store = new DataDir(dir, taken.lock, onRecord);
      if (taken.notice) store.notices.unshift(taken.notice);
      return store;
    } catch (err) {
      taken.lock.release();
      throw err;
    }
  }

  /**
   * Appends one record to the journal, written to the OS before this returns. A write that fails or
   * stops short (disk full, file too large, an I/O error) is cut back to the last whole record and
   * throws DataDirUnwritableError: nothing partial stays for a later record to land behind
   * (decision 0125).
   */
  append(rec: KeptRecord): void {
    if (this.#closed) return;
    const buf = encodeRecord(rec);
    try {
      if (this.#unclean) this.#rollback();
      let written = 0;
      while (written < buf.length) {
        const n = writeSync(this.#fd, buf, written, buf.length - written);
        if (n <= 0) throw new Error(`short write: ${written} of ${buf.length} bytes`);
        written += n;
      }
    } catch (err) {
      this.#unclean = true;
      try {
        this.#rollback();
      } catch {
        // Tried again before the next write.
      }
      throw this.#fail(`${describeError(err)} writing ${journalName(this.#generation)}`);
    }
    this.#journalBytes += buf.length;
    this.#dirty = true;
    this.#failure = undefined;
  }

  /** Why the data dir cannot keep changes now (the last write failed), or undefined when it can. */
  get failure(): DataDirFailure | undefined {
    return this.#failure;
  }

  #rollback(): void {
    ftruncateSync(this.#fd, this.#journalBytes);
    this.#unclean = false;
  }

  #fail(cause: string): DataDirUnwritableError {
    this.#failure = { cause, since: this.#failure?.since ?? new Date().toISOString() };
    return new DataDirUnwritableError(this.dir, cause);
  }

  /** Whether the journal has grown enough to be folded into a new snapshot. */
  wantsCompaction(): boolean {
    return this.#journalBytes > Math.max(COMPACT_MIN_BYTES, 2 * this.#snapshotBytes);
  }

  /**
   * Writes every record of `state` as snapshot generation N+1 (temporary file, fsync, rename), then
   * starts journal N+1 and deletes journal N. A crash at any step leaves either the old snapshot with
   * its journal or the new snapshot (whose journal is empty or absent).
   */
  compact(state: Iterable<KeptRecord>): void {
    if (this.#closed) return;
    this.#compacting = undefined; // a background one in flight gives up: this one is newer
    const generation = this.#generation + 1;
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.tmp`);
    let bytes = 0;
    let journal: number | undefined;
    try {
      const fd = openSync(tmp, 'w');
      try {
        const write = (rec: StoreRecord) => {
          const buf = encodeRecord(rec);
          writeWhole(fd, buf);
          bytes += buf.length;
        };
        write({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
        for (const rec of state) write(rec);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      // Opened before the rename: a crash between leaves an empty journal of a generation the old
      // snapshot does not name, deleted at the next start.
      journal = openSync(join(this.dir, journalName(generation)), 'a');
      renameSync(tmp, join(this.dir, SNAPSHOT_FILE));
    } catch (err) {
      if (journal !== undefined) closeQuietly(journal);
      for (const f of [tmp, join(this.dir, journalName(generation))]) {
        try {
          unlinkSync(f);
        } catch {
          // Never created.
        }
      }
      // The journal still holds everything: only the compaction is lost.
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} writing a snapshot`);
    }
    syncDir(this.dir);
    closeQuietly(this.#fd);
    this.#generation = generation;
    this.#fd = journal;
    this.#journalBytes = 0;
    this.#unclean = false;
    this.#snapshotBytes = bytes;
    this.#deleteJournalsBefore(generation);
  }

  /**
   * Compaction that never holds the event loop for long (decision 0127): `state` is
   * taken at once (a consistent cut: the record objects, not their bytes), the journal switches to
   * generation N+1 at that instant, and snapshot N+1 is then encoded and written in slices of
   * COMPACT_SLICE_BYTES with a turn of the event loop between them, synced and renamed into place.
   * A crash before the rename leaves snapshot N with journals N and N+1, read in order at the next
   * start; after it, snapshot N+1 with journal N+1. Resolves with what it wrote, or undefined when
   * it did not run (closed, another one running, a synchronous compaction overtook it).
   */
  async compactInBackground(
    state: Iterable<KeptRecord>,
  ): Promise<{ records: number; bytes: number; captureMs: number } | undefined> {
    if (this.#closed || this.#compacting) return undefined;
    const started = performance.now();
    const records = Array.from(state);
    const generation = this.#generation + 1;
    let journal: number;
    try {
      journal = openSync(join(this.dir, journalName(generation)), 'a');
    } catch (err) {
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} starting ${journalName(generation)}`);
    }
    // From here on changes go to journal N+1; journal N is complete.
    this.sync();
    closeQuietly(this.#fd);
    this.#fd = journal;
    this.#generation = generation;
    this.#journalBytes = 0;
    this.#unclean = false;
    const captureMs = performance.now() - started;
    const token = {};
    this.#compacting = token;
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.${generation}.tmp`);
    let bytes = 0;
    try {
      const fd = openSync(tmp, 'w');
      try {
        let pending: Buffer[] = [
          encodeRecord({
            k: 'snapshot',
            d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() },
          }),
        ];
        let pendingBytes = pending[0]!.length;
        const flush = () => {
          const buf = Buffer.concat(pending, pendingBytes);
          writeWhole(fd, buf);
          bytes += buf.length;
          pending = [];
          pendingBytes = 0;
        };
        for (const rec of records) {
          const buf = encodeRecord(rec);
          pending.push(buf);
          pendingBytes += buf.length;
          if (pendingBytes >= COMPACT_SLICE_BYTES) {
            flush();
            await new Promise((resolve) => setImmediate(resolve));
            if (this.#compacting !== token) throw new Error('overtaken');
          }
        }
        flush();
        await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
      } finally {
        closeQuietly(fd);
      }
      if (this.#compacting !== token) throw new Error('overtaken');
      renameSync(tmp, join(this.dir, SNAPSHOT_FILE));
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        // Never created.
      }
      if (this.#compacting !== token) return undefined;
      this.#compacting = undefined;
      // Journals N and N+1 still hold everything: only the compaction is lost.
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} writing a snapshot`);
    }
    this.#compacting = undefined;
    syncDir(this.dir);
    this.#snapshotBytes = bytes;
    this.#deleteJournalsBefore(generation);
    return { records: records.length, bytes, captureMs };
  }

  #deleteJournalsBefore(generation: number): void {
    for (const f of readdirSync(this.dir)) {
      const journal = /^journal-(\d+)\.bin$/.exec(f);
      if (!journal || Number(journal[1]) >= generation) continue;
      try {
        unlinkSync(join(this.dir, f));
      } catch {
        // Already gone.
      }
    }
  }

  /** Sizes for messages and benchmarks. */
  sizes(): { snapshotBytes: number; journalBytes: number } {
    return { snapshotBytes: this.#snapshotBytes, journalBytes: this.#journalBytes };
  }

  /** Flushes written records to the disk itself (they already survive a killed process). */
  sync(): void {
    if (!this.#dirty || this.#closed) return;
    try {
      fdatasyncSync(this.#fd);
      this.#dirty = false;
    } catch (err) {
      // Runs on a timer: never throws past it; health says so until a write succeeds.
      this.#fail(`${describeError(err)} flushing ${journalName(this.#generation)} to the disk`);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.sync();
    this.#closed = true;
    this.#compacting = undefined; // a background compaction gives up before its rename
    clearInterval(this.#timer);
    closeQuietly(this.#fd);
    this.lock.release();
  }

  setPort(port: number): void {
    this.lock.setPort(port);
  }
}

/** Why the data dir cannot keep changes, since when (the first failure of a run of them). */
export interface DataDirFailure {
  cause: string;
  since: string;
}

/** `ENOSPC: no space left on device` (the code and what it means), or the message. */
function describeError(err: unknown): string {
  return err instanceof Error
    ? err.message.replace(/, (write|open|fsync|fdatasync|ftruncate|rename).*$/, '')
    : String(err);
}

/** Writes all of `buf` (a short write is continued; no progress is an error). */
function writeWhole(fd: number, buf: Buffer): void {
  let written = 0;
  while (written < buf.length) {
    const n = writeSync(fd, buf, written, buf.length - written);
    if (n <= 0) throw new Error(`short write: ${written} of ${buf.length} bytes`);
    written += n;
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closing cannot lose anything written: the writes already reached the OS.
  }
}

function readFormat(dir: string): number | undefined {
  const file = join(dir, FORMAT_FILE);
  if (!existsSync(file)) {
    if (readdirSync(dir).some((f) => f === SNAPSHOT_FILE || /^journal-\d+\.bin$/.test(f)))
      throw storeError(
        'data_dir_corrupt',
        `${dir} holds emulator data but no ${FORMAT_FILE}; restore it or move the data dir away.`,
      );
    return undefined;
  }
  let format: number;
  try {
    format = (JSON.parse(readFileSync(file, 'utf8')) as { format: number }).format;
  } catch (err) {
    throw storeError(
      'data_dir_corrupt',
      `${file} cannot be read (${(err as Error).message}); restore it or move the data dir away.`,
    );
  }
  if (!Number.isInteger(format) || format > DATA_DIR_FORMAT)
    throw storeError(
      'data_dir_newer',
      `The data dir ${dir} was written by a newer emulator (format ${format}; this one reads format ${DATA_DIR_FORMAT} and older). Upgrade reportbo-emulator, or give this one another data dir.`,
      { dataDir: dir, format, supported: DATA_DIR_FORMAT },
    );
  return format;
}

function writeFormat(dir: string): void {
  const file = join(dir, FORMAT_FILE);
  writeFileSync(
    `${file}.tmp`,
    `${JSON.stringify({ format: DATA_DIR_FORMAT, writer: 'reportbo-emulator' })}\n`,
  );
  renameSync(`${file}.tmp`, file);
}

function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // Some file systems do not sync directories; the rename is still atomic.
  }
}

function storeError(code: string, message: string, details?: Record<string, unknown>): EmulatorError {
  return new EmulatorError(code, message, 500, 'user_input', details);
}
