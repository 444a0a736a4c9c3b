import {
  closeSync,
  copyFileSync,
  existsSync,
  fdatasync,
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
import { countRecords, cutFile, describeCount, type JournalMark, readJournal } from './journal-read.js';
import type { KeptRecord, OutgoingRecord } from './kinds.js';
import { DirLock, LOCK_FILE } from './lock.js';
import { decodeRecords, encodeRecord, encodeRecordAt, type OutgoingStoreRecord } from './records.js';

/**
 * The on-disk format this code writes and reads (`format.json`); a newer one is refused. Format 2: a
 * journal's reservation record may carry only the history entries its save appended (`historyFrom`),
 * which a format-1 reader would take for the whole history.
 */
export const DATA_DIR_FORMAT = 2;
const FORMAT_FILE = 'format.json';
const SNAPSHOT_FILE = 'snapshot.bin';
/** The journal grows to at least this before it is compacted into a snapshot. */
export const COMPACT_MIN_BYTES = 64 * 1024 * 1024;
/** How much of a snapshot a background compaction encodes and writes before it yields. */
const COMPACT_SLICE_BYTES = 256 * 1024;
/** A record an append encodes in its scratch buffer; a larger one (a long reservation history) gets a Buffer of its own. */
const APPEND_SCRATCH_BYTES = 64 * 1024;
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
  #journalBytes = 0;
  #snapshotBytes: number;
  #dirty = false;
  /** A flush to the disk is under way on the thread pool (`#flush`). */
  #flushing = false;
  /** A failed write may have left part of a record after #journalBytes: cut it before the next one. */
  #unclean = false;
  #failure: DataDirFailure | undefined;
  /** The background compaction running now (a token: a synchronous one replaces it). */
  #compacting: object | undefined;
  readonly #timer: NodeJS.Timeout;
  #closed = false;
  /** Records of the current journal and how many of each kind, for the checkpoint (decision 0111). */
  #records = 0;
  #kinds = new Map<string, number>();
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
    const format = readFormat(dir);
    const { checkpoint, problem: checkpointProblem } = readCheckpoint(dir);
    /** What is missing or damaged, one line per file (decision 0111). */
    const damage: string[] = [];
    const snapshot = this.#readSnapshot(checkpoint, onRecord, damage);
    const snapshotGeneration = snapshot?.generation;
    this.#generation = snapshotGeneration ?? 0;
    this.#snapshotBytes = snapshot?.fileBytes ?? 0;
    const onDisk = journalsIn(dir);
    if (snapshotGeneration === undefined) {
      const named = checkpoint?.snapshot;
      if (named || (onDisk[0] ?? 0) > 0)
        damage.push(
          `${SNAPSHOT_FILE} is missing${named ? `: lost its ${named.records} records (generation ${named.generation}, ${named.bytes} bytes at the checkpoint of ${checkpoint?.at})` : ` (the journals start at generation ${onDisk[0]}): lost every record it held`}`,
        );
    }
    // The snapshot's journal, then any later ones: a compaction in the background starts journal N+1
    // before its snapshot is renamed into place, so a crash meanwhile leaves journals N and N+1
    // beside snapshot N, read in order. Every journal the checkpoint names must be there, at least
    // as long as it was then (decision 0111).
    const first = snapshotGeneration ?? onDisk[0] ?? 0;
    const { sealed, current, held } = this.#readJournals({
      format,
      checkpoint,
      onDisk,
      first,
      acceptDataLoss,
      onRecord,
      damage,
    });
    // Every data dir of format 2 on had its checkpoint written at its last start (decision 0111):
    // without one, a journal cut at a record boundary looks whole, so records may be missing
    // (decision 0162). Only a data dir whose journals hold nothing yet (a first start
    // cut before its checkpoint) is started as it is.
    if (checkpointProblem && format !== undefined && format >= 2 && held.length > 0)
      damage.push(
        `${CHECKPOINT_FILE} is ${checkpointProblem}: whether acknowledged records were cut from the end of ${held.join(', ')} cannot be checked (the checkpoint names how long each journal was)`,
      );
    this.#refuseOrAccept(damage, acceptDataLoss);
    this.#sealed = sealed;
    this.#records = current.records;
    this.#kinds = new Map(Object.entries(current.kinds));
    removeLeftovers(dir, snapshotGeneration);
    const journalFile = join(dir, journalName(this.#generation));
    // The journal before format.json: a format.json without a journal beside it is then always damage.
    this.#fd = openSync(journalFile, 'a');
    if (format === undefined || format < DATA_DIR_FORMAT) writeFormat(dir);
    this.#writeCheckpoint('running');
    this.#timer = setInterval(() => this.#flush(), SYNC_INTERVAL_MS);
    this.#timer.unref();
  }

  /**
   * Reads the journals back from generation `first` on, in order, handing their records on: each
   * one the checkpoint names must be there and as long as it names (decision 0111); what was lost
   * is added to `damage`, and with `acceptDataLoss` what follows a loss is set aside. Answers the
   * sealed journals, the current one, and which journals hold records.
   */
  #readJournals(o: {
    format: number | undefined;
    checkpoint: Checkpoint | undefined;
    onDisk: number[];
    first: number;
    acceptDataLoss: boolean;
    onRecord: (rec: KeptRecord) => void;
    damage: string[];
  }): { sealed: JournalMark[]; current: JournalMark; held: string[] } {
    const { format, checkpoint, onDisk, first, acceptDataLoss, onRecord, damage } = o;
    const named = (checkpoint?.journals ?? []).filter((j) => j.generation >= first);
    const lastExpected = Math.max(first, ...onDisk, ...named.map((j) => j.generation));
    this.#journalBytes = 0;
    /** After damage that is accepted, later journals are set aside: what is kept is a prefix. */
    let stopped = false;
    const sealed: JournalMark[] = [];
    /** The journals read that hold records: what a missing checkpoint leaves unchecked. */
    const held: string[] = [];
    let current: JournalMark = { generation: first, bytes: 0, records: 0, kinds: {} };
    const aside = `.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (let g = first; g <= lastExpected; g++) {
      const name = journalName(g);
      const file = join(this.dir, name);
      const mark = named.find((j) => j.generation === g);
      if (!existsSync(file)) {
        // A new data dir has no journal yet and no format.json; one with format.json always has one.
        if (format === undefined && onDisk.length === 0 && !mark) break;
        if (stopped) continue;
        damage.push(
          `${name} is missing: ${mark ? `lost its ${describeCount(mark.records, mark.kinds)} (${mark.bytes} bytes at the checkpoint of ${checkpoint?.at})` : 'lost every record it held (how many is unknown: no checkpoint names it)'}`,
        );
        if (acceptDataLoss) stopped = true;
        continue;
      }
      const buf = readFileSync(file);
      if (stopped) {
        const later = countRecords(buf, 0);
        damage.push(
          `${name}: set aside as ${name}${aside} (it follows the damage): lost its ${describeCount(later.count, later.kinds)}`,
        );
        renameSync(file, `${file}${aside}`);
        continue;
      }
      const { read, kinds, lost, repaired } = readJournal(buf, {
        mark,
        newest: g === lastExpected,
        checkpointAt: checkpoint?.at,
        onRecord,
      });
      if (repaired !== undefined) {
        cutFile(file, read.goodBytes);
        this.notices.push(`data dir ${this.dir}: repaired ${name}: ${repaired}`);
      }
      if (lost !== undefined) {
        damage.push(`${name}: ${lost}`);
        if (acceptDataLoss) {
          // Kept as it was beside the data dir's files, then cut back to what was read.
          copyFileSync(file, `${file}${aside}`);
          cutFile(file, read.goodBytes);
          stopped = true;
        }
      }
      if (read.count > 0) held.push(`${name} (${read.count} records, ${read.goodBytes} bytes)`);
      if (g > first) sealed.push(current);
      current = { generation: g, bytes: read.goodBytes, records: read.count, kinds };
      this.#generation = g;
      this.#journalBytes = read.goodBytes;
    }
    return { sealed, current, held };
  }

  /**
   * What was lost refuses the start (decision 0111), unless `--accept-data-loss` said to go on:
   * then each loss is a notice.
   */
  #refuseOrAccept(damage: string[], acceptDataLoss: boolean): void {
    if (damage.length === 0) return;
    if (!acceptDataLoss)
      throw storeError(
        'data_dir_corrupt',
        `The data dir ${this.dir} has lost acknowledged records:\n${damage.map((d) => `  - ${d}`).join('\n')}\nStart with --accept-data-loss (REPORTBO_ACCEPT_DATA_LOSS=true) to keep what is readable and go on (damaged files are kept beside as *${'.damaged-<time>'}), or restore the data dir from a backup.`,
        { dataDir: this.dir, damage },
      );
    for (const d of damage)
      this.notices.push(`data dir ${this.dir}: accepted a loss (--accept-data-loss): ${d}`);
  }

  /**
   * Reads the snapshot back (none: undefined), handing its records on; what it lost is added to
   * `damage`. A snapshot is written to a temporary file, synced and renamed: one without its
   * header is not a crash case and refuses the start.
   */
  #readSnapshot(
    checkpoint: Checkpoint | undefined,
    onRecord: (rec: KeptRecord) => void,
    damage: string[],
  ): { generation: number; fileBytes: number } | undefined {
    const snapshotFile = join(this.dir, SNAPSHOT_FILE);
    if (!existsSync(snapshotFile)) return undefined;
    const buf = readFileSync(snapshotFile);
    const read = decodeRecords(buf, onRecord, 'header');
    const { header } = read;
    if (!header)
      throw storeError(
        'data_dir_corrupt',
        `${snapshotFile} is damaged (${read.problem?.reason ?? 'no header record'} at byte ${read.problem?.offset ?? 0}). Move the data dir away to start empty, or restore it from a backup.`,
        { dataDir: this.dir },
      );
    const generation = header.d.generation;
    const mark = checkpoint?.snapshot?.generation === generation ? checkpoint.snapshot : undefined;
    if (read.problem || (mark && (buf.length < mark.bytes || read.count < mark.records))) {
      const lost = mark
        ? `${Math.max(1, mark.records - read.count)} of its ${mark.records} records`
        : 'the records from there on';
      damage.push(
        `${SNAPSHOT_FILE}: ${read.problem ? `a ${read.problem.reason} at byte ${read.problem.offset}` : `cut at byte ${buf.length} (a record boundary; the checkpoint of ${checkpoint?.at} names ${mark?.bytes} bytes)`}: lost ${lost}`,
      );
    }
    this.#snapshotMark = { generation, bytes: read.goodBytes, records: read.count };
    return { generation, fileBytes: buf.length };
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
    this.#records++;
    this.#kinds.set(rec.k, (this.#kinds.get(rec.k) ?? 0) + 1);
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

  /**
   * Whether the journals should be folded into a new snapshot: the current one has grown enough, or
   * a sealed one is still there (a compaction that a crash or a failure cut off before its rename),
   * so a start always catches up and journals never pile up (decision 0164). False while a
   * background compaction runs.
   */
  wantsCompaction(): boolean {
    if (this.#compacting) return false;
    return (
      this.#sealed.length > 0 || this.#journalBytes > Math.max(COMPACT_MIN_BYTES, 2 * this.#snapshotBytes)
    );
  }

  /**
   * Writes every record of `state` as snapshot generation N+1 (temporary file, fsync, rename), then
   * starts journal N+1 and deletes journal N. A crash at any step leaves either the old snapshot with
   * its journal or the new snapshot (whose journal is empty or absent).
   */
  compact(state: Iterable<OutgoingRecord>): void {
    if (this.#closed) return;
    this.#compacting = undefined; // a background one in flight gives up: this one is newer
    const generation = this.#generation + 1;
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.tmp`);
    let bytes = 0;
    let records = 0;
    let journal: number | undefined;
    try {
      const fd = openSync(tmp, 'w');
      try {
        const out = new RecordSlices(fd);
        out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
        for (const rec of state) out.add(rec);
        out.flush();
        bytes = out.bytes;
        records = out.records;
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
    this.#startJournal();
    this.#unclean = false;
    this.#snapshotBytes = bytes;
    this.#snapshotMark = { generation, bytes, records };
    this.#sealed = [];
    this.#deleteJournalsBefore(generation);
    this.#writeCheckpoint('running');
  }

  /** The new journal's counts start at nothing. */
  #startJournal(): void {
    this.#journalBytes = 0;
    this.#records = 0;
    this.#kinds = new Map();
  }

  #mark(): JournalMark {
    return {
      generation: this.#generation,
      bytes: this.#journalBytes,
      records: this.#records,
      kinds: Object.fromEntries(this.#kinds),
    };
  }

  /**
   * Writes `checkpoint.json` (decision 0111): every journal that must exist and how long it was,
   * with its records by kind, and the snapshot's size. Written at open, after each flush to the disk,
   * at a compaction and at a clean close; a start finding less than it names refuses. Never throws:
   * an older checkpoint only checks less.
   */
  #writeCheckpoint(state: 'running' | 'stopped', current: JournalMark = this.#mark()): void {
    const checkpoint: Checkpoint = {
      at: new Date().toISOString(),
      state,
      ...(this.#snapshotMark ? { snapshot: this.#snapshotMark } : {}),
      journals: [...this.#sealed, current],
    };
    const file = join(this.dir, CHECKPOINT_FILE);
    try {
      writeFileSync(`${file}.tmp`, `${JSON.stringify(checkpoint)}\n`);
      renameSync(`${file}.tmp`, file);
    } catch {
      // A full disk: the previous checkpoint names less than there is, which is still true.
    }
  }

  /**
   * Compaction that never holds the event loop for long (decisions 0127, 0146): `state` is a cut
   * of the state taken just before the call (`stateRecords`: references and shallow copies; its
   * records are built as they are iterated), the journal switches to generation N+1 at that
   * instant, and snapshot N+1 is then built, encoded and written in slices of
   * COMPACT_SLICE_BYTES with a turn of the event loop between them, synced and renamed into place.
   * A crash before the rename leaves snapshot N with journals N and N+1, read in order at the next
   * start; after it, snapshot N+1 with journal N+1. Resolves with what it wrote, or undefined when
   * it did not run (closed, another one running, a synchronous compaction overtook it).
   */
  async compactInBackground(
    state: Iterable<OutgoingRecord>,
  ): Promise<{ records: number; bytes: number; captureMs: number } | undefined> {
    if (this.#closed || this.#compacting) return undefined;
    const started = performance.now();
    const generation = this.#generation + 1;
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
    this.#sealed.push(this.#mark());
    this.#fd = journal;
    this.#generation = generation;
    this.#startJournal();
    this.#unclean = false;
    this.#writeCheckpoint('running');
    const captureMs = performance.now() - started;
    const token = {};
    this.#compacting = token;
    const tmp = join(this.dir, `${SNAPSHOT_FILE}.${generation}.tmp`);
    let bytes = 0;
    let count = 0;
    try {
      const fd = openSync(tmp, 'w');
      try {
        const out = new RecordSlices(fd);
        out.add({ k: 'snapshot', d: { generation, format: DATA_DIR_FORMAT, at: new Date().toISOString() } });
        // The records are built as they are taken (stateRecords cut the state already); each full
        // slice is written, then the event loop answers what waited before the next is encoded.
        for (const rec of state) {
          if (out.add(rec)) {
            await new Promise((resolve) => setImmediate(resolve));
            if (this.#compacting !== token) throw new Error('overtaken');
          }
        }
        out.flush();
        bytes = out.bytes;
        count = out.records - 1;
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
    this.#snapshotMark = { generation, bytes, records: count + 1 };
    this.#sealed = this.#sealed.filter((j) => j.generation >= generation);
    this.#deleteJournalsBefore(generation);
    this.#writeCheckpoint('running');
    return { records: count, bytes, captureMs };
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

  /**
   * The timer's flush: what was written so far reaches the disk on the thread pool, and the
   * checkpoint then names the journal as long as it was when the flush began. A compaction or close
   * meanwhile takes over (it names the journals itself); a failure is kept for health, never thrown.
   */
  #flush(): void {
    if (!this.#dirty || this.#closed || this.#flushing) return;
    const generation = this.#generation;
    const mark = this.#mark();
    this.#dirty = false;
    this.#flushing = true;
    fdatasync(this.#fd, (err) => {
      this.#flushing = false;
      if (this.#closed || generation !== this.#generation) return;
      if (err) {
        this.#dirty = true;
        this.#fail(`${describeError(err)} flushing ${journalName(generation)} to the disk`);
        return;
      }
      this.#writeCheckpoint('running', mark);
    });
  }

  /** Flushes what was written to the disk itself now, on the event loop (a clean close). */
  sync(): void {
    if (!this.#dirty || this.#closed) return;
    try {
      fdatasyncSync(this.#fd);
      this.#dirty = false;
      this.#writeCheckpoint('running');
    } catch (err) {
      // Never throws past a close: health says so until a write succeeds.
      this.#fail(`${describeError(err)} flushing ${journalName(this.#generation)} to the disk`);
    }
  }

  close(): void {
    if (this.#closed) return;
    if (this.#flushing) this.#dirty = true; // the timer's flush may not have reached the disk yet
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

/**
 * Journals of generations older than the snapshot (leftovers of a compaction a crash interrupted
 * after its rename) and temporary files; another opener's lock being written is its own to remove.
 */
function removeLeftovers(dir: string, snapshotGeneration: number | undefined): void {
  for (const f of readdirSync(dir)) {
    const journal = /^journal-(\d+)\.bin$/.exec(f);
    if (journal && snapshotGeneration !== undefined && Number(journal[1]) < snapshotGeneration)
      unlinkSync(join(dir, f));
    if (f.endsWith('.tmp') && !f.startsWith(LOCK_FILE)) unlinkSync(join(dir, f));
  }
}

const CHECKPOINT_FILE = 'checkpoint.json';

interface SnapshotMark {
  generation: number;
  bytes: number;
  records: number;
}

/** `checkpoint.json` (decision 0111). */
interface Checkpoint {
  at: string;
  /** `stopped`: written by a clean close, so the journal ends exactly where it says. */
  state: 'running' | 'stopped';
  snapshot?: SnapshotMark;
  journals: JournalMark[];
}

/**
 * The checkpoint, or what is wrong with it: `missing` (a data dir of an older emulator, one never
 * opened, or one whose checkpoint was deleted) or `damaged (why)`.
 */
function readCheckpoint(dir: string): { checkpoint?: Checkpoint; problem?: string } {
  const file = join(dir, CHECKPOINT_FILE);
  if (!existsSync(file)) return { problem: 'missing' };
  try {
    const cp = JSON.parse(readFileSync(file, 'utf8')) as Checkpoint;
    const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0;
    const markOk = (m: Partial<JournalMark> | undefined) =>
      !!m && count(m.generation) && count(m.bytes) && count(m.records);
    if (
      typeof cp.at !== 'string' ||
      !Array.isArray(cp.journals) ||
      !cp.journals.every((j) => markOk(j) && typeof j.kinds === 'object' && j.kinds !== null) ||
      (cp.snapshot !== undefined && !markOk(cp.snapshot))
    )
      throw new Error('not a checkpoint');
    return { checkpoint: cp };
  } catch (err) {
    return { problem: `damaged (${(err as Error).message})` };
  }
}

/** The generations of the journals in `dir`, lowest first. */
function journalsIn(dir: string): number[] {
  return readdirSync(dir)
    .map((f) => /^journal-(\d+)\.bin$/.exec(f)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
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
/**
 * Records encoded one after another into one buffer of COMPACT_SLICE_BYTES, written to `fd` each
 * time it fills: a snapshot of 25,000 records makes no Buffer per record and copies each body once,
 * from where it is kept (decision 0157; before, each record's Buffers lived until their slice was
 * written, long enough to reach V8's old space and keep malloc's arena grown after a compaction).
 */
class RecordSlices {
  readonly #buf = Buffer.allocUnsafeSlow(COMPACT_SLICE_BYTES);
  #used = 0;
  /** Bytes written to the file so far. */
  bytes = 0;
  records = 0;

  constructor(private readonly fd: number) {}

  /** Adds one record; answers true when a full slice was written to the file to make room. */
  add(rec: OutgoingStoreRecord): boolean {
    this.records++;
    const end = encodeRecordAt(rec, this.#buf, this.#used);
    if (end >= 0) {
      this.#used = end;
      return false;
    }
    this.flush();
    const alone = encodeRecordAt(rec, this.#buf, 0);
    if (alone >= 0) this.#used = alone;
    else this.#write(encodeRecord(rec)); // larger than a slice: a Buffer of its own
    return true;
  }

  /** Writes what is encoded and not yet written. */
  flush(): void {
    if (this.#used === 0) return;
    this.#write(this.#buf.subarray(0, this.#used));
    this.#used = 0;
  }

  #write(bytes: Buffer): void {
    writeWhole(this.fd, bytes);
    this.bytes += bytes.length;
  }
}

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
