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
import { DataDirUnwritableError, EmulatorError } from '../errors.js';
import type { KeptRecord, OutgoingRecord } from './kinds.js';
import { DirLock, LOCK_FILE } from './lock.js';
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
import { encodeRecord, encodeRecordAt, RecordSlices, writeWhole } from './records.js';

export { DATA_DIR_FORMAT } from './read-back.js';

/** The journal grows to at least this before it is compacted into a snapshot. */
export const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/** A record an append encodes in its scratch buffer; a larger one (a long reservation history) gets a Buffer of its own. */
const APPEND_SCRATCH_BYTES = 64 * 1024;
/** How often written records are flushed to the disk itself (fdatasync): a power cut loses at most this. */
export const SYNC_INTERVAL_MS = 1000;

/**
 * A data dir (decision 0080): `format.json`, `lock.json`, `snapshot.bin` (generation N, every state
 * record at one instant) and `journal-N.bin` (every change since, appended). Opening it takes the
 * lock, reads both files back and repairs a truncated last record; `append` writes one record to the OS
 * before it returns, so an admin answer sent after it survives `kill -9`.
 */
export class DataDir {
  readonly notices: string[] = [];
  /** The journal appended to: its generation, bytes, records and how many of each kind (decision 0111). */
  #current: JournalMark;
  #fd: number;
  #dirty = false;
  /** A failed write may have left part of a record after the journal's end: cut it before the next one. */
  #unclean = false;
  /** Why the data dir cannot keep changes, since when (the first failure of a run of them). */
  #failure: { cause: string; since: string } | undefined;
  /** The background compaction running now (a token: a synchronous one replaces it). */
  #compacting: object | undefined;
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** An append encodes its record here (written before it returns) instead of in a Buffer of its own. */
  readonly #scratch = Buffer.allocUnsafeSlow(APPEND_SCRATCH_BYTES);
  /** Journals closed by a background compaction whose snapshot is not in place yet. */
  #sealed: JournalMark[] = [];
  #snapshotMark: SnapshotMark | undefined;

  private constructor(
    readonly dir: string,
    private readonly lock: DirLock,
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

  /**
   * Opens (creating it if needed) and locks `dir`, handing every record read back to `onRecord`,
   * oldest first (the snapshot's, then the journal's); `port` goes into the lock file.
   */
  static open(
    dir: string,
    port: number,
    onRecord: (rec: KeptRecord) => void,
    options: { acceptDataLoss?: boolean } = {},
  ): DataDir {
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
      const store = new DataDir(dir, taken.lock, onRecord, options.acceptDataLoss ?? false);
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
  append(rec: OutgoingRecord): void {
    if (this.#closed) return;
    const end = encodeRecordAt(rec, this.#scratch, 0);
    const buf = end < 0 ? encodeRecord(rec) : this.#scratch.subarray(0, end);
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
   * Whether the journals should be folded into a new snapshot: the current one has grown enough, or
   * a sealed one is still there (a compaction that a crash or a failure cut off before its rename),
   * so a start always catches up and journals never pile up (decision 0164). False while a
   * background compaction runs.
   */
  wantsCompaction(): boolean {
    if (this.#compacting) return false;
    return (
      this.#sealed.length > 0 ||
      this.#current.bytes > Math.max(COMPACT_MIN_BYTES, 2 * (this.#snapshotMark?.bytes ?? 0))
    );
  }

  /**
   * Writes `checkpoint.json` (decision 0111): every journal that must exist and how long it was,
   * with its records by kind, and the snapshot's size; a start finding less than it names refuses.
   * Never throws: on a full disk the previous checkpoint names less than there is, still true.
   */
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
   * Compaction (decisions 0127, 0146) of `state`, a cut taken just before the call (`stateRecords`):
   * the journal switches to generation N+1 at once, then snapshot N+1 is written in slices with a
   * turn of the event loop between them, synced and renamed into place. Resolves with what it wrote,
   * or undefined when it did not run (closed, another one running, overtaken by `compact`).
   */
  async compactInBackground(state: Iterable<OutgoingRecord>) {
    if (this.#closed || this.#compacting) return undefined;
    const steps = this.#compaction(state);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return step.value;
      if (typeof step.value === 'number') {
        const fd = step.value;
        await new Promise<void>((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));
      } else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /** The same steps without a turn of the event loop between them: done when it returns. */
  compact(state: Iterable<OutgoingRecord>): void {
    if (this.#closed) return;
    const steps = this.#compaction(state);
    for (let step = steps.next(); !step.done; step = steps.next())
      if (typeof step.value === 'number') fsyncSync(step.value);
  }

  /**
   * The one compaction: yields between slices (undefined) and the snapshot's fd when it is to be
   * synced; answers what it wrote (its records, the header aside, and bytes, and how long it held the
   * event loop to switch journals), or undefined when a newer compaction overtook it.
   */
  *#compaction(
    state: Iterable<OutgoingRecord>,
  ): Generator<number | undefined, { records: number; bytes: number; captureMs: number } | undefined> {
    const started = performance.now();
    const generation = this.#current.generation + 1;
    let journal: number;
    try {
      journal = openSync(join(this.dir, journalName(generation)), 'a');
    } catch (err) {
      throw new DataDirUnwritableError(this.dir, `${describeError(err)} starting ${journalName(generation)}`);
    }
    // From here on changes go to journal N+1; journal N is complete. It reaches the disk itself off
    // the event loop, then closes (a flush takes 1–100 ms here; the snapshot's rename comes later).
    const sealed = this.#fd;
    fdatasync(sealed, () => closeQuietly(sealed));
    this.#dirty = false;
    this.#sealed.push(this.#current);
    this.#fd = journal;
    this.#current = { generation, bytes: 0, records: 0, kinds: {} };
    this.#unclean = false;
    this.#writeCheckpoint('running');
    const captureMs = performance.now() - started;
    const token = {};
    this.#compacting = token; // one running already gives up: this one is newer
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.${generation}.tmp`);
    let out: RecordSlices | undefined;
    try {
      const fd = openSync(tmp, 'w');
      try {
        out = new RecordSlices(fd);
        out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
        for (const rec of state) {
          if (out.add(rec)) yield;
          if (this.#compacting !== token) throw new Error('overtaken');
        }
        out.flush();
        yield fd;
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

  /**
   * Flushes what was written to the disk itself (fdatasync, on the event loop: decision 0249), then
   * the checkpoint names the journal as it is. A failure is kept for health, never thrown.
   */
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
    this.#compacting = undefined; // a background compaction gives up before its rename
    clearInterval(this.#timer);
    closeQuietly(this.#fd);
    this.lock.release();
  }

  setPort(port: number): void {
    this.lock.setPort(port);
  }
}

/** `ENOSPC: no space left on device` (the code and what it means), or the message. */
function describeError(err: unknown): string {
  return err instanceof Error
    ? err.message.replace(/, (write|open|fsync|fdatasync|ftruncate|rename).*$/, '')
    : String(err);
}

/** Closes `fd`; a failure to close loses nothing written. */
function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closing cannot lose anything written: the writes already reached the OS.
  }
}

/** Writes `value` as `file`, whole: to a temporary file, renamed over it. */
function replaceJson(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value)}\n`);
  renameSync(`${file}.tmp`, file);
}
