import {
  closeSync,
  fdatasync,
  fdatasyncSync,
  fsync,
  fsyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DataDirUnwritableError, EmulatorError } from '../errors.js';
import type { KeptRecord, OutgoingRecord } from './kinds.js';
import { DirLock } from './lock.js';
import {
  CHECKPOINT_FILE,
  type Checkpoint,
  DATA_DIR_FORMAT,
  deleteJournalsBefore,
  FORMAT_FILE,
  type JournalMark,
  journalName,
  Reading,
  readFormat,
  SNAPSHOT_FILE,
  type SnapshotMark,
  storeError,
} from './read-back.js';
import { encodeRecord, RecordSlices, writeWhole } from './records.js';

/** The journal grows to at least this before it is compacted into a snapshot. */
export const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/** How often written records reach the disk itself (fdatasync): a power cut loses at most this. */
export const SYNC_INTERVAL_MS = 1000;

/**
 * A data dir (decision 0080): `format.json`, `lock.json`, `snapshot.bin` (generation N) and
 * `journal-N.bin` (every change since). `append` writes to the OS before it returns, so an admin
 * answer sent after it survives `kill -9`.
 */
export class DataDir {
  readonly notices: string[] = [];
  /** The journal appended to: generation, bytes, records by kind (decision 0111). */
  #current: JournalMark;
  #fd: number;
  #dirty = false;
  /** A failed write may have left part of a record after the journal's end: cut before the next. */
  #unclean = false;
  /** Why the data dir cannot keep changes, since the first failure of a run of them. */
  #failure: { cause: string; since: string } | undefined;
  #compacting = false;
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** Journals closed by a background compaction whose snapshot is not in place yet. */
  #sealed: JournalMark[] = [];
  #snapshotMark: SnapshotMark | undefined;

  private constructor(
    readonly dir: string,
    readonly lock: DirLock,
    onRecord: (rec: KeptRecord) => void,
    acceptDataLoss: boolean,
  ) {
    const back = new Reading(dir, onRecord, acceptDataLoss, this.notices).all();
    ({ current: this.#current, sealed: this.#sealed, snapshot: this.#snapshotMark } = back);
    // The journal before format.json: a format.json without a journal beside it is then always damage.
    this.#fd = openSync(join(dir, journalName(this.#current.generation)), 'a');
    if (back.format === undefined || back.format < DATA_DIR_FORMAT)
      replaceJson(join(dir, FORMAT_FILE), { format: DATA_DIR_FORMAT, writer: 'reportbo-emulator' });
    this.#writeCheckpoint('running');
    this.#timer = setInterval(() => this.sync(), SYNC_INTERVAL_MS);
    this.#timer.unref();
  }

  /** Opens (creating it) and locks `dir`, handing every record read back to `onRecord`, oldest first. */
  static open(
    dir: string,
    port: number,
    onRecord: (rec: KeptRecord) => void,
    options: { acceptDataLoss?: boolean } = {},
  ): DataDir {
    let taken: ReturnType<typeof DirLock.take>;
    try {
      mkdirSync(dir, { recursive: true });
      readFormat(dir); // refuses a newer format before taking the lock
      taken = DirLock.take(dir, port);
    } catch (err) {
      if (err instanceof EmulatorError) throw err;
      throw storeError(
        'data_dir_unusable',
        `Cannot use the data dir ${dir}: ${describeError(err)}. Choose a directory this user can write (--data-dir, REPORTBO_DATA_DIR).`,
      );
    }
    try {
      const store = new DataDir(dir, taken.lock, onRecord, options.acceptDataLoss ?? false);
      if (taken.notice) store.notices.unshift(taken.notice);
      return store;
    } catch (err) {
      taken.lock.release();
      throw err;
    }
  }

  /** Appends one record, written to the OS before this returns; a failed write is cut back (decision 0125). */
  append(rec: OutgoingRecord): void {
    if (this.#closed) return;
    const buf = encodeRecord(rec);
    try {
      if (this.#unclean) this.#rollback();
      writeWhole(this.#fd, buf);
    } catch (err) {
      this.#unclean = true;
      try {
        this.#rollback();
      } catch {
        // Tried again before the next write.
      }
      throw this.#fail(`${describeError(err)} writing ${journalName(this.#current.generation)}`);
    }
    const c = this.#current;
    c.bytes += buf.length;
    c.records++;
    c.kinds[rec.k] = (c.kinds[rec.k] ?? 0) + 1;
    this.#dirty = true;
    this.#failure = undefined;
  }

  /** Why the data dir cannot keep changes now (the last write failed), or undefined when it can. */
  get failure() {
    return this.#failure;
  }

  #rollback(): void {
    ftruncateSync(this.#fd, this.#current.bytes);
    this.#unclean = false;
  }

  #fail(cause: string): DataDirUnwritableError {
    this.#failure = { cause, since: this.#failure?.since ?? new Date().toISOString() };
    return new DataDirUnwritableError(this.dir, cause);
  }

  /**
   * Whether to compact: the journal has grown enough, or a sealed one is still there (a compaction
   * cut off before its rename), so journals never pile up (decision 0164).
   */
  wantsCompaction(): boolean {
    if (this.#compacting) return false;
    return (
      this.#sealed.length > 0 ||
      this.#current.bytes > Math.max(COMPACT_MIN_BYTES, 2 * (this.#snapshotMark?.bytes ?? 0))
    );
  }

  /** Writes `checkpoint.json` (decision 0111); on a full disk the previous one names less, still true. */
  #writeCheckpoint(state: 'running' | 'stopped'): void {
    const journals = [...this.#sealed, this.#current];
    const checkpoint: Checkpoint = { at: new Date().toISOString(), state, journals };
    if (this.#snapshotMark) checkpoint.snapshot = this.#snapshotMark;
    try {
      replaceJson(join(this.dir, CHECKPOINT_FILE), checkpoint);
    } catch {
      // Kept as it was.
    }
  }

  /**
   * Compacts `state`, a cut taken just before (decisions 0127, 0146): journal N+1 starts at once, then
   * snapshot N+1 is written in slices, a turn of the event loop between them; undefined if it did not run.
   */
  async compactInBackground(state: Iterable<OutgoingRecord>) {
    if (this.#closed || this.#compacting) return undefined;
    const started = performance.now();
    const generation = this.#current.generation + 1;
    let journal: number;
    try {
      journal = openSync(join(this.dir, journalName(generation)), 'a');
    } catch (err) {
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} starting ${journalName(generation)}`);
    }
    // Journal N is complete: it reaches the disk off the event loop (1–100 ms here), then closes.
    const sealed = this.#fd;
    fdatasync(sealed, () => closeQuietly(sealed));
    this.#dirty = false;
    this.#sealed.push(this.#current);
    this.#fd = journal;
    this.#current = { generation, bytes: 0, records: 0, kinds: {} };
    this.#unclean = false;
    this.#writeCheckpoint('running');
    const captureMs = performance.now() - started;
    this.#compacting = true;
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.${generation}.tmp`);
    let out: RecordSlices | undefined;
    try {
      const fd = openSync(tmp, 'w');
      try {
        out = new RecordSlices(fd);
        out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
        for (const rec of state) {
          if (out.add(rec)) await new Promise((resolve) => setImmediate(resolve));
          if (this.#closed) throw new Error('closed');
        }
        out.flush();
        await promisify(fsync)(fd);
      } finally {
        closeQuietly(fd);
      }
      if (this.#closed) throw new Error('closed');
      renameSync(tmp, join(this.dir, SNAPSHOT_FILE));
    } catch (err) {
      try {
        unlinkSync(tmp);
      } catch {
        // Never created.
      }
      this.#compacting = false;
      if (this.#closed) return undefined;
      // Journals N and N+1 still hold everything: only the compaction is lost.
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} writing a snapshot`);
    }
    this.#compacting = false;
    try {
      const fd = openSync(this.dir, 'r');
      fsyncSync(fd);
      closeSync(fd);
    } catch {
      // Some file systems do not sync directories; the rename is still atomic.
    }
    const { bytes, records } = out;
    this.#snapshotMark = { generation, bytes, records };
    this.#sealed = this.#sealed.filter((j) => j.generation >= generation);
    deleteJournalsBefore(this.dir, generation);
    this.#writeCheckpoint('running');
    return { records: records - 1, bytes, captureMs };
  }

  /** Sizes for messages and benchmarks. */
  sizes(): { snapshotBytes: number; journalBytes: number } {
    return { snapshotBytes: this.#snapshotMark?.bytes ?? 0, journalBytes: this.#current.bytes };
  }

  /** fdatasync (on the event loop: decision 0249), then the checkpoint; a failure is kept for health. */
  sync(): void {
    if (!this.#dirty || this.#closed) return;
    try {
      fdatasyncSync(this.#fd);
      this.#dirty = false;
      this.#writeCheckpoint('running');
    } catch (err) {
      this.#fail(`${describeError(err)} flushing ${journalName(this.#current.generation)} to the disk`);
    }
  }

  close(): void {
    if (this.#closed) return;
    this.sync();
    if (!this.#failure) this.#writeCheckpoint('stopped');
    this.#closed = true;
    clearInterval(this.#timer);
    closeQuietly(this.#fd);
    this.lock.release();
  }
}

/** `ENOSPC: no space left on device` (the code and what it means, without the call), or the message. */
function describeError(err: unknown): string {
  return err instanceof Error ? err.message.replace(/, [a-z]+( '.*)?$/, '') : String(err);
}

/** Closes `fd`; a failure to close loses nothing: the writes already reached the OS. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {}
}

/** Writes `value` as `file`, whole: to a temporary file, renamed over it. */
function replaceJson(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value)}\n`);
  renameSync(`${file}.tmp`, file);
}
