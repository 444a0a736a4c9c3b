/**
 * Reading one journal of a data dir back (decision 0111): its good records handed on, and what its
 * end says: the write a crash cut short (repaired by the caller), or damage to acknowledged records
 * (what was lost, counted against the checkpoint).
 */
import { closeSync, fsyncSync, ftruncateSync, openSync } from 'node:fs';
import type { KeptRecord } from './kinds.js';
import { decodeRecords } from './records.js';

/** What one journal held at a checkpoint. */
export interface JournalMark {
  generation: number;
  bytes: number;
  records: number;
  kinds: Record<string, number>;
}

/** One journal read back: how much is good, its records by kind, and what its end says. */
export interface JournalRead {
  read: { goodBytes: number; count: number };
  kinds: Record<string, number>;
  /** Damage to acknowledged records: where, and what was lost. */
  lost?: string;
  /** The last write a crash cut short, to be cut off (never acknowledged): what it was. */
  repaired?: string;
}

/**
 * Reads `buf`, one journal's bytes, handing each good record to `onRecord`. `mark`: what the
 * checkpoint named for it; `newest`: the last journal, the only one a crash can leave cut short.
 */
export function readJournal(
  buf: Buffer,
  o: {
    mark: JournalMark | undefined;
    newest: boolean;
    checkpointAt: string | undefined;
    onRecord: (rec: KeptRecord) => void;
  },
): JournalRead {
  const { mark } = o;
  const kinds: Record<string, number> = {};
  const read = decodeRecords(buf, (rec) => {
    kinds[rec.k] = (kinds[rec.k] ?? 0) + 1;
    o.onRecord(rec);
  });
  const { problem } = read;
  const markBytes = mark?.bytes ?? 0;
  if (problem) {
    // The one thing a crash leaves: the last write cut short (or, after a power cut, blocks the disk
    // never got: zeros), at the end of the newest journal, after the checkpoint. Anything else
    // was acknowledged (decision 0111).
    const interrupted =
      o.newest &&
      problem.last &&
      problem.offset >= markBytes &&
      (isCutShort(buf, problem.offset) || buf.subarray(problem.offset).every((b) => b === 0));
    if (interrupted)
      return {
        read,
        kinds,
        repaired: `dropped a ${problem.reason} at byte ${problem.offset} (${buf.length - read.goodBytes} bytes; the write a crash interrupted, never acknowledged)`,
      };
    const after = problem.last ? undefined : countRecords(buf, problem.offset + 1);
    const found = { count: 1 + (after?.count ?? 0), kinds: { ...(after?.kinds ?? {}) } };
    const kind = kindAt(buf, problem.offset);
    if (kind) found.kinds[kind] = (found.kinds[kind] ?? 0) + 1;
    const counted = lostSince(mark, read.count, kinds, found);
    const why = after
      ? ` with ${after.count} good record${after.count === 1 ? '' : 's'} after it`
      : !isCutShort(buf, problem.offset)
        ? ' (the whole record is there: not a write a crash cut short)'
        : ` (the checkpoint of ${o.checkpointAt} names ${markBytes} bytes: the file was cut)`;
    return { read, kinds, lost: `a ${problem.reason} at byte ${problem.offset}${why}: lost ${counted}` };
  }
  if (mark && (read.goodBytes < mark.bytes || read.count < mark.records))
    return {
      read,
      kinds,
      lost: `cut at byte ${read.goodBytes} (a record boundary; the checkpoint of ${o.checkpointAt} names ${mark.bytes} bytes): lost ${lostSince(mark, read.count, kinds, { count: 0, kinds: {} })}`,
    };
  return { read, kinds };
}

/** Cuts `file` back to its first `bytes` and flushes it. */
export function cutFile(file: string, bytes: number): void {
  const fd = openSync(file, 'r+');
  ftruncateSync(fd, bytes);
  fsyncSync(fd);
  closeSync(fd);
}

/** Whether the record at `at` runs past the end of `buf` (its header or its payload): a write cut short. */
function isCutShort(buf: Buffer, at: number): boolean {
  return buf.length - at < 12 || at + 8 + buf.readUInt32LE(at) > buf.length;
}

/** The kind a damaged record names, when its JSON still reads. */
function kindAt(buf: Buffer, at: number): string | undefined {
  try {
    const jsonLength = buf.readUInt32LE(at + 8);
    const k = (JSON.parse(buf.toString('utf8', at + 12, at + 12 + jsonLength)) as { k?: unknown }).k;
    return typeof k === 'string' && k.length <= 40 ? k : undefined;
  } catch {
    return undefined;
  }
}

/** The good records of `buf` from the first one found at or after `from`, counted by kind. */
export function countRecords(buf: Buffer, from: number): { count: number; kinds: Record<string, number> } {
  const kinds: Record<string, number> = {};
  for (let at = from; at + 12 <= buf.length; at++) {
    const read = decodeRecords(buf.subarray(at), (rec) => {
      kinds[rec.k] = (kinds[rec.k] ?? 0) + 1;
    });
    if (read.count > 0 || read.problem === undefined) return { count: read.count, kinds };
  }
  return { count: 0, kinds };
}

/**
 * What was lost from a journal that held `mark` at the checkpoint and now reads `count` records
 * (`kinds`), or, beyond what the checkpoint names, the records `found` past the damage.
 */
function lostSince(
  mark: JournalMark | undefined,
  count: number,
  kinds: Record<string, number>,
  found: { count: number; kinds: Record<string, number> },
): string {
  if (!mark || mark.records - count < found.count) return describeCount(found.count, found.kinds);
  const missing: Record<string, number> = {};
  for (const [k, n] of Object.entries(mark.kinds)) if (n > (kinds[k] ?? 0)) missing[k] = n - (kinds[k] ?? 0);
  return describeCount(mark.records - count, missing);
}

/** `3 records (n: 2, a+: 1)`. */
export function describeCount(count: number, kinds: Record<string, number>): string {
  const parts = Object.entries(kinds)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}: ${n}`);
  return `${count} record${count === 1 ? '' : 's'}${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
}
