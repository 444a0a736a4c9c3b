import {
  closeSync,
  copyFileSync,
  existsSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EmulatorError } from '../errors.js';
import type { KeptRecord } from './kinds.js';
import { LOCK_FILE } from './lock.js';
import { type DecodeResult, decodeRecords, isCutShort, kindAt } from './records.js';

/**
 * The on-disk format this code writes (`format.json`); a newer one is refused. Format 3: each record
 * is a change (decision 0230); format 2's records are still read (src/store/format-2.ts).
 */
export const DATA_DIR_FORMAT = 3;
export const FORMAT_FILE = 'format.json';
export const SNAPSHOT_FILE = 'snapshot.bin';
export const CHECKPOINT_FILE = 'checkpoint.json';

export const journalName = (generation: number) => `journal-${generation}.bin`;

const count = z.int().nonnegative();
const SnapshotMarkShape = z.object({ generation: count, bytes: count, records: count });
/** What one journal held at a checkpoint: its bytes and records, by kind. */
const JournalMarkShape = SnapshotMarkShape.extend({ kinds: z.record(z.string(), z.number()) });
/** `checkpoint.json` (decision 0111); `stopped`: written by a clean close. */
const CheckpointShape = z.object({
  at: z.string(),
  state: z.enum(['running', 'stopped']).optional(),
  snapshot: SnapshotMarkShape.optional(),
  journals: z.array(JournalMarkShape),
});
export type SnapshotMark = z.output<typeof SnapshotMarkShape>;
export type JournalMark = z.output<typeof JournalMarkShape>;
export type Checkpoint = z.output<typeof CheckpointShape>;

export function storeError(code: string, message: string, details?: Record<string, unknown>): EmulatorError {
  return new EmulatorError(code, message, 500, 'user_input', details);
}

/** The generations of the journals in `dir`, lowest first. */
function journalsIn(dir: string): number[] {
  return readdirSync(dir)
    .map((f) => /^journal-(\d+)\.bin$/.exec(f)?.[1])
    .filter((g): g is string => g !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
}

/** Deletes the journals older than `generation` (folded into its snapshot). */
export function deleteJournalsBefore(dir: string, generation: number): void {
  for (const g of journalsIn(dir)) {
    if (g >= generation) break;
    try {
      unlinkSync(join(dir, journalName(g)));
    } catch {
      // Already gone.
    }
  }
}

/** The format `dir` was written in (undefined: none yet); refuses a newer one, or one not said. */
export function readFormat(dir: string): number | undefined {
  const file = join(dir, FORMAT_FILE);
  if (!existsSync(file)) {
    if (existsSync(join(dir, SNAPSHOT_FILE)) || journalsIn(dir).length > 0)
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

/**
 * One reading of a data dir back (decisions 0080, 0111): the snapshot's records, then each journal's,
 * handed to `onRecord`; a truncated last record is repaired; what was lost refuses the start unless
 * `acceptDataLoss`. `all()` answers where the files stand, for the DataDir that writes on.
 */
export class Reading {
  readonly format: number | undefined;
  readonly checkpoint: Checkpoint | undefined;
  /** What is wrong with the checkpoint: `missing` or `damaged (why)`. */
  readonly checkpointProblem: string | undefined;
  /** What is missing or damaged, one line per file (decision 0111). */
  readonly damage: string[] = [];

  constructor(
    readonly dir: string,
    readonly onRecord: (rec: KeptRecord) => void,
    readonly acceptDataLoss: boolean,
    readonly notices: string[],
  ) {
    this.format = readFormat(dir);
    const file = join(dir, CHECKPOINT_FILE);
    if (!existsSync(file)) this.checkpointProblem = 'missing';
    else
      try {
        const read = CheckpointShape.safeParse(JSON.parse(readFileSync(file, 'utf8')));
        if (!read.success) throw new Error('not a checkpoint');
        this.checkpoint = read.data;
      } catch (err) {
        this.checkpointProblem = `damaged (${(err as Error).message})`;
      }
  }

  all() {
    const { dir, checkpoint, damage, format } = this;
    const snapshot = this.snapshot();
    const onDisk = journalsIn(dir);
    if (!snapshot) {
      const named = checkpoint?.snapshot;
      if (named || (onDisk[0] ?? 0) > 0)
        damage.push(
          `${SNAPSHOT_FILE} is missing${named ? `: lost its ${named.records} records (generation ${named.generation}, ${named.bytes} bytes at the checkpoint of ${checkpoint?.at})` : ` (the journals start at generation ${onDisk[0]}): lost every record it held`}`,
        );
    }
    // The snapshot's journal, then later ones: a crash during a compaction leaves journals N and N+1
    // beside snapshot N.
    const { sealed, current } = this.journals(snapshot?.generation ?? onDisk[0] ?? 0, onDisk);
    // Without a checkpoint a journal cut at a record boundary looks whole (decision 0162); only
    // journals that hold nothing yet (a first start cut before its checkpoint) start as they are.
    const held = [...sealed, current]
      .filter((j) => j.records > 0)
      .map((j) => `${journalName(j.generation)} (${j.records} records, ${j.bytes} bytes)`);
    if (this.checkpointProblem && format !== undefined && format >= 2 && held.length > 0)
      damage.push(
        `${CHECKPOINT_FILE} is ${this.checkpointProblem}: whether acknowledged records were cut from the end of ${held.join(', ')} cannot be checked (the checkpoint names how long each journal was)`,
      );
    this.refuseOrAccept();
    // Leftovers of a crash: journals older than the snapshot and temporary files (not a lock's).
    if (snapshot) deleteJournalsBefore(dir, snapshot.generation);
    for (const f of readdirSync(dir))
      if (f.endsWith('.tmp') && !f.startsWith(LOCK_FILE)) unlinkSync(join(dir, f));
    return { format, snapshot, sealed, current };
  }

  /**
   * Reads the journals from generation `first` on: each one the checkpoint names must be there and as
   * long as it names (decision 0111); losses go to `damage`, and with `acceptDataLoss` what follows a
   * loss is set aside. Answers the sealed journals and the current one.
   */
  journals(first: number, onDisk: number[]): { sealed: JournalMark[]; current: JournalMark } {
    const { dir, notices, format, checkpoint, acceptDataLoss, damage } = this;
    const named = (checkpoint?.journals ?? []).filter((j) => j.generation >= first);
    const lastExpected = Math.max(first, ...onDisk, ...named.map((j) => j.generation));
    /** After damage that is accepted, later journals are set aside: what is kept is a prefix. */
    let stopped = false;
    const sealed: JournalMark[] = [];
    let current: JournalMark = { generation: first, bytes: 0, records: 0, kinds: {} };
    const aside = `.damaged-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    for (let g = first; g <= lastExpected; g++) {
      const name = journalName(g);
      const file = join(dir, name);
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
        const later = countRecords(buf);
        damage.push(
          `${name}: set aside as ${name}${aside} (it follows the damage): lost its ${describeCount(later.count, later.kinds)}`,
        );
        renameSync(file, `${file}${aside}`);
        continue;
      }
      const { read, lost, repaired } = this.journal(buf, mark, g === lastExpected);
      if (repaired !== undefined) {
        cutFile(file, read.goodBytes);
        notices.push(`data dir ${dir}: repaired ${name}: ${repaired}`);
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
      if (g > first) sealed.push(current);
      current = { generation: g, bytes: read.goodBytes, records: read.count, kinds: read.kinds };
    }
    return { sealed, current };
  }

  /** One journal's bytes read: what is good, what was `lost`, or the write a crash cut short (`repaired`). */
  journal(
    buf: Buffer,
    mark: JournalMark | undefined,
    newest: boolean,
  ): { read: DecodeResult; lost?: string; repaired?: string } {
    const read = decodeRecords(buf, this.onRecord);
    const { problem } = read;
    const markBytes = mark?.bytes ?? 0;
    const at = this.checkpoint?.at;
    if (problem) {
      // The one thing a crash leaves: the last write cut short (or zeros after a power cut), at the
      // end of the newest journal, past the checkpoint. Anything else was acknowledged (decision 0111).
      const interrupted =
        newest &&
        problem.last &&
        problem.offset >= markBytes &&
        (isCutShort(buf, problem.offset) || buf.subarray(problem.offset).every((b) => b === 0));
      if (interrupted)
        return {
          read,
          repaired: `dropped a ${problem.reason} at byte ${problem.offset} (${buf.length - read.goodBytes} bytes; the write a crash interrupted, never acknowledged)`,
        };
      const after = problem.last ? undefined : countRecords(buf.subarray(problem.offset + 1));
      const found = { count: 1 + (after?.count ?? 0), kinds: { ...(after?.kinds ?? {}) } };
      const kind = kindAt(buf, problem.offset);
      if (kind) found.kinds[kind] = (found.kinds[kind] ?? 0) + 1;
      const why = after
        ? ` with ${after.count} good record${after.count === 1 ? '' : 's'} after it`
        : !isCutShort(buf, problem.offset)
          ? ' (the whole record is there: not a write a crash cut short)'
          : ` (the checkpoint of ${at} names ${markBytes} bytes: the file was cut)`;
      return {
        read,
        lost: `a ${problem.reason} at byte ${problem.offset}${why}: lost ${lostSince(mark, read, found)}`,
      };
    }
    if (mark && (read.goodBytes < mark.bytes || read.count < mark.records))
      return {
        read,
        lost: `cut at byte ${read.goodBytes} (a record boundary; the checkpoint of ${at} names ${mark.bytes} bytes): lost ${lostSince(mark, read, { count: 0, kinds: {} })}`,
      };
    return { read };
  }

  /** What was lost refuses the start (decision 0111), unless `--accept-data-loss`: then a notice. */
  refuseOrAccept(): void {
    const { dir, notices, damage, acceptDataLoss } = this;
    if (damage.length === 0) return;
    if (!acceptDataLoss)
      throw storeError(
        'data_dir_corrupt',
        `The data dir ${dir} has lost acknowledged records:\n${damage.map((d) => `  - ${d}`).join('\n')}\nStart with --accept-data-loss (REPORTBO_ACCEPT_DATA_LOSS=true) to keep what is readable and go on (damaged files are kept beside as *${'.damaged-<time>'}), or restore the data dir from a backup.`,
        { dataDir: dir, damage },
      );
    for (const d of damage) notices.push(`data dir ${dir}: accepted a loss (--accept-data-loss): ${d}`);
  }

  /** Reads the snapshot back, losses to `damage`; one without its header was never renamed in whole. */
  snapshot(): SnapshotMark | undefined {
    const { dir, checkpoint, damage } = this;
    const file = join(dir, SNAPSHOT_FILE);
    if (!existsSync(file)) return undefined;
    const buf = readFileSync(file);
    const read = decodeRecords(buf, this.onRecord, 'header');
    if (!read.header)
      throw storeError(
        'data_dir_corrupt',
        `${file} is damaged (${read.problem?.reason ?? 'no header record'} at byte ${read.problem?.offset ?? 0}). Move the data dir away to start empty, or restore it from a backup.`,
        { dataDir: dir },
      );
    const generation = read.header.d.generation;
    const mark = checkpoint?.snapshot?.generation === generation ? checkpoint.snapshot : undefined;
    if (read.problem || (mark && (buf.length < mark.bytes || read.count < mark.records))) {
      const lost = mark
        ? `${Math.max(1, mark.records - read.count)} of its ${mark.records} records`
        : 'the records from there on';
      damage.push(
        `${SNAPSHOT_FILE}: ${read.problem ? `a ${read.problem.reason} at byte ${read.problem.offset}` : `cut at byte ${buf.length} (a record boundary; the checkpoint of ${checkpoint?.at} names ${mark?.bytes} bytes)`}: lost ${lost}`,
      );
    }
    return { generation, bytes: read.goodBytes, records: read.count };
  }
}

/** Cuts `file` back to its first `bytes` and flushes it. */
function cutFile(file: string, bytes: number): void {
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
}

/** The good records of `buf` from the first one found, counted by kind. */
function countRecords(buf: Buffer): Counted {
  for (let at = 0; at + 12 <= buf.length; at++) {
    const read = decodeRecords(buf.subarray(at), () => {});
    if (read.count > 0 || read.problem === undefined) return read;
  }
  return { count: 0, kinds: {} };
}

type Counted = Pick<DecodeResult, 'count' | 'kinds'>;

/** What was lost from a journal that held `mark` and now reads `read`, or the records `found` past the damage. */
function lostSince(mark: JournalMark | undefined, { count, kinds }: Counted, found: Counted): string {
  if (!mark || mark.records - count < found.count) return describeCount(found.count, found.kinds);
  const missing: Record<string, number> = {};
  for (const [k, n] of Object.entries(mark.kinds)) if (n > (kinds[k] ?? 0)) missing[k] = n - (kinds[k] ?? 0);
  return describeCount(mark.records - count, missing);
}

/** `3 records (n: 2, a+: 1)`. */
function describeCount(count: number, kinds: Record<string, number>): string {
  const parts = Object.entries(kinds)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}: ${n}`);
  return `${count} record${count === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}
