import {
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { EmulatorError } from '../errors.js';
import { LOCK_FILE } from './lock.js';

/**
 * The on-disk format this code writes (`format.json`); a newer one is refused. Format 2: a journal's
 * reservation record may carry only the history entries its save appended (`historyFrom`). Format 3:
 * each record is a change (decision 0230); format 2's records are still read (src/store/format-2.ts).
 */
export const DATA_DIR_FORMAT = 3;
const FORMAT_FILE = 'format.json';
export const SNAPSHOT_FILE = 'snapshot.bin';
export const CHECKPOINT_FILE = 'checkpoint.json';

export const journalName = (generation: number) => `journal-${generation}.bin`;

/**
 * Journals of generations older than the snapshot (leftovers of a compaction a crash interrupted
 * after its rename) and temporary files; another opener's lock being written is its own to remove.
 */
export function removeLeftovers(dir: string, snapshotGeneration: number | undefined): void {
  if (snapshotGeneration !== undefined) deleteJournalsBefore(dir, snapshotGeneration);
  for (const f of readdirSync(dir))
    if (f.endsWith('.tmp') && !f.startsWith(LOCK_FILE)) unlinkSync(join(dir, f));
}

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

/**
 * The checkpoint, or what is wrong with it: `missing` (a data dir of an older emulator, one never
 * opened, or one whose checkpoint was deleted) or `damaged (why)`.
 */
export function readCheckpoint(dir: string): { checkpoint?: Checkpoint; problem?: string } {
  const file = join(dir, CHECKPOINT_FILE);
  if (!existsSync(file)) return { problem: 'missing' };
  try {
    const read = CheckpointShape.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (!read.success) throw new Error('not a checkpoint');
    return { checkpoint: read.data };
  } catch (err) {
    return { problem: `damaged (${(err as Error).message})` };
  }
}

/** The generations of the journals in `dir`, lowest first. */
export function journalsIn(dir: string): number[] {
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
export function describeError(err: unknown): string {
  return err instanceof Error
    ? err.message.replace(/, (write|open|fsync|fdatasync|ftruncate|rename).*$/, '')
    : String(err);
}

/** Closes `fd`; a failure to close loses nothing written. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // Closing cannot lose anything written: the writes already reached the OS.
  }
}

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

export function writeFormat(dir: string): void {
  replaceJson(join(dir, FORMAT_FILE), { format: DATA_DIR_FORMAT, writer: 'reportbo-emulator' });
}

/** Writes `value` as `file`, whole: to a temporary file, renamed over it. */
export function replaceJson(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, `${JSON.stringify(value)}\n`);
  renameSync(`${file}.tmp`, file);
}

export function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    fsyncSync(fd);
    closeSync(fd);
  } catch {
    // Some file systems do not sync directories; the rename is still atomic.
  }
}

export function storeError(code: string, message: string, details?: Record<string, unknown>): EmulatorError {
  return new EmulatorError(code, message, 500, 'user_input', details);
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
