import { writeSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { type KeptRecord, keptRecord, type OutgoingRecord, type SnapshotHeader } from './kinds.js';

/**
 * One journal or snapshot record (decision 0080): a kind, JSON data and maybe raw bytes (a gzipped
 * body). On disk: `[u32 LE payload length][u32 LE CRC-32 of payload][payload]`, payload =
 * `[u32 LE JSON length][JSON {"k":kind,"d":data}][bytes]`.
 */
export type OutgoingStoreRecord = OutgoingRecord | SnapshotHeader;

const HEAD_BYTES = 8;

/** The bytes of one record, in a Buffer of its own. */
export function encodeRecord(rec: OutgoingStoreRecord): Buffer {
  const json = JSON.stringify({ k: rec.k, d: rec.d });
  const out = Buffer.allocUnsafe(HEAD_BYTES + 4 + Buffer.byteLength(json) + (rec.b?.length ?? 0));
  encodeRecordAt(rec, out, 0, json);
  return out;
}

/** Encodes `rec` into `into` at `at`; answers where it ends, or -1 when it does not fit (decision 0157). */
export function encodeRecordAt(
  rec: OutgoingStoreRecord,
  into: Buffer,
  at: number,
  json = JSON.stringify({ k: rec.k, d: rec.d }),
): number {
  const jsonLength = Buffer.byteLength(json);
  const payloadLength = 4 + jsonLength + (rec.b?.length ?? 0);
  const end = at + HEAD_BYTES + payloadLength;
  if (end > into.length) return -1;
  into.writeUInt32LE(payloadLength, at);
  into.writeUInt32LE(jsonLength, at + HEAD_BYTES);
  into.write(json, at + HEAD_BYTES + 4, jsonLength, 'utf8');
  rec.b?.copy(into, at + HEAD_BYTES + 4 + jsonLength);
  into.writeUInt32LE(crc32(into.subarray(at + HEAD_BYTES, end)), at + 4);
  return end;
}

/** What reading a file found: how many records, and where the good part ends when a bad record follows. */
export interface DecodeResult {
  count: number;
  /** The good records by kind (the header aside). */
  kinds: Record<string, number>;
  /** Bytes of good records from the start of the file. */
  goodBytes: number;
  /** Why reading stopped early; `last`: nothing that reads as a record follows (the crash case). */
  problem?: { offset: number; reason: string; last: boolean };
  /** The snapshot's header, when `header` was asked for. */
  header?: SnapshotHeader;
}

/**
 * Reads `buf`'s records, each checked and handed to `onRecord` (no list: a list of 250,000 made GC a
 * third of a restart), up to the first that does not read; `header`: a snapshot's first record.
 */
export function decodeRecords(
  buf: Buffer,
  onRecord: (rec: KeptRecord) => void,
  header?: 'header',
): DecodeResult {
  let count = 0;
  let at = 0;
  let head: SnapshotHeader | undefined;
  const kinds: Record<string, number> = {};
  /** What was read up to `at`, and why reading stopped there (no reason: the end of the file). */
  const result = (reason?: string): DecodeResult => ({
    count,
    kinds,
    goodBytes: at,
    ...(reason ? { problem: { offset: at, reason, last: isLast(buf, at) } } : {}),
    ...(head ? { header: head } : {}),
  });
  while (at < buf.length) {
    const problem = checkRecord(buf, at);
    if (problem) return result(problem);
    const jsonEnd = at + HEAD_BYTES + 4 + buf.readUInt32LE(at + HEAD_BYTES);
    const end = at + HEAD_BYTES + buf.readUInt32LE(at);
    let raw: unknown;
    try {
      raw = jsonAt(buf, at);
    } catch (err) {
      return result(`record whose JSON cannot be read (${(err as Error).message})`);
    }
    const { k, d } = (raw ?? {}) as { k?: unknown; d?: unknown };
    // A view of the file's bytes: replay copies a body into the body file (decision 0153) as it reads it.
    const b = end > jsonEnd ? buf.subarray(jsonEnd, end) : undefined;
    const rec = keptRecord(k, d, b, header && !head ? 'header' : undefined);
    if (typeof rec === 'string') return result(rec);
    if (rec.k === 'snapshot') head = rec;
    else {
      try {
        onRecord(rec);
      } catch (err) {
        return result(`record "${rec.k}" that cannot be applied (${(err as Error).message})`);
      }
      kinds[rec.k] = (kinds[rec.k] ?? 0) + 1;
    }
    count++;
    at = end;
  }
  return result();
}

function checkRecord(buf: Buffer, at: number): string | undefined {
  if (buf.length - at < HEAD_BYTES + 4) return `truncated record header (${buf.length - at} bytes)`;
  const payloadLength = buf.readUInt32LE(at);
  if (at + HEAD_BYTES + payloadLength > buf.length)
    return `truncated record (${payloadLength} bytes announced, ${buf.length - at - HEAD_BYTES} present)`;
  const jsonLength = buf.readUInt32LE(at + HEAD_BYTES);
  if (jsonLength + 4 > payloadLength) return 'record with an impossible JSON length';
  if (crc32(buf.subarray(at + HEAD_BYTES, at + HEAD_BYTES + payloadLength)) !== buf.readUInt32LE(at + 4))
    return 'record that fails its checksum';
  return undefined;
}

/** Whether no good record starts anywhere after a bad one at `at` (then the bad one was the last). */
function isLast(buf: Buffer, at: number): boolean {
  for (let i = at + 1; i + HEAD_BYTES + 4 <= buf.length; i++) {
    if (checkRecord(buf, i) === undefined) return false;
  }
  return true;
}

/** Whether the record at `at` runs past the end of `buf` (its header or its payload): a write cut short. */
export function isCutShort(buf: Buffer, at: number): boolean {
  return buf.length - at < HEAD_BYTES + 4 || at + HEAD_BYTES + buf.readUInt32LE(at) > buf.length;
}

/** The JSON of the record at `at`, parsed (throws when it does not read). */
const jsonAt = (buf: Buffer, at: number): unknown => {
  const start = at + HEAD_BYTES + 4;
  return JSON.parse(buf.toString('utf8', start, start + buf.readUInt32LE(at + HEAD_BYTES)));
};

/** The kind a damaged record names, when its JSON still reads. */
export function kindAt(buf: Buffer, at: number): string | undefined {
  try {
    const { k } = jsonAt(buf, at) as { k?: unknown };
    return typeof k === 'string' && k.length <= 40 ? k : undefined;
  } catch {
    return undefined;
  }
}

/** How much of a snapshot is encoded before it is written (a compaction yields between slices). */
const COMPACT_SLICE_BYTES = 256 * 1024;

/** Records encoded into one buffer, written to `fd` each time it fills (decision 0157). */
export class RecordSlices {
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

/** Writes all of `buf` at the file's position (a short write is continued; no progress is an error). */
export function writeWhole(fd: number, buf: Buffer): void {
  let written = 0;
  while (written < buf.length) {
    const n = writeSync(fd, buf, written, buf.length - written);
    if (n <= 0) throw new Error(`short write: ${written} of ${buf.length} bytes`);
    written += n;
  }
}
