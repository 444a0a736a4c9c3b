/**
 * The kinds of record a data dir holds (decisions 0080, 0101, 0230): each change kind (format 3) and
 * each kind of format 2 (src/store/format-2.ts). `keptRecord` checks a record read from disk.
 */
import { z } from 'zod';
import { closestKey } from '../config/closest-key.js';
import { formatPath } from '../errors.js';
import { CHANGE_SHAPES } from '../model/changes.js';
import { int, str } from '../model/fields.js';
import { type Check, plainCheck } from '../model/plain-check.js';
import { FORMAT_2_SHAPES } from './format-2.js';

/** Each kind of record and the shape of its data: the change kinds and the kinds of format 2. */
export const RECORD_SHAPES = { ...CHANGE_SHAPES, ...FORMAT_2_SHAPES } as const;

/** The kinds whose record carries bytes (a gzipped body): a reservation's always, a notification's when not shared. */
const BYTES = {
  reservation_saved: 'always',
  notification_created: 'maybe',
  res: 'always',
  'n+': 'maybe',
} as const;

export type RecordKind = keyof typeof RECORD_SHAPES;
export type RecordData<K extends RecordKind> = z.output<(typeof RECORD_SHAPES)[K]>;

/** One record of a kind: its data, and its bytes for the kinds that carry them (BYTES). */
type RecordOf<K extends RecordKind, B = Buffer> = { k: K; d: RecordData<K> } & (K extends keyof typeof BYTES
  ? (typeof BYTES)[K] extends 'always'
    ? { b: B }
    : { b?: B | undefined }
  : { b?: undefined });

/** Every record the journal and a snapshot hold: a union over the kinds, discriminated by `k`. */
export type KeptRecord = { [K in RecordKind]: RecordOf<K> }[RecordKind];

/** A record's bytes on their way to disk: a Buffer, or a stored body copied straight from where it is kept. */
export type OutgoingBytes = Pick<Buffer, 'length' | 'copy'>;

/** A record as it is written: a kept record whose bytes may still be where they are kept. */
export type OutgoingRecord = { [K in RecordKind]: RecordOf<K, OutgoingBytes> }[RecordKind];

/** A record of a change kind (format 3), as it is written. */
export type ChangeRecord = Extract<OutgoingRecord, { k: keyof typeof CHANGE_SHAPES }>;

/** The first record of a snapshot file: which generation it is, and when it was written. */
const SnapshotHeaderShape = z.object({ generation: int, format: int, at: str });
export type SnapshotHeader = { k: 'snapshot'; d: z.output<typeof SnapshotHeaderShape>; b?: undefined };

const KINDS = Object.keys(RECORD_SHAPES) as RecordKind[];
const isKind = (k: string): k is RecordKind => Object.hasOwn(RECORD_SHAPES, k);

/** A plain predicate compiled from each kind's shape, tried before zod (docs/perf-budget.md). */
const FITS = Object.fromEntries(KINDS.map((k) => [k, plainCheck(RECORD_SHAPES[k])])) as Record<
  RecordKind,
  Check | undefined
>;

/**
 * The record `k`/`d`/`b` read from disk, checked against its kind's shape, or why it is not one (an
 * unknown kind names the closest known one). `header`: the first record of a snapshot.
 */
export function keptRecord(
  k: unknown,
  d: unknown,
  b: Buffer | undefined,
  header?: 'header',
): KeptRecord | SnapshotHeader | string {
  if (header) {
    if (k !== 'snapshot')
      return `first record of kind ${JSON.stringify(k)} where the snapshot header belongs`;
    const parsed = SnapshotHeaderShape.safeParse(d);
    return parsed.success ? { k, d: parsed.data } : misfit(k, parsed.error);
  }
  if (typeof k !== 'string' || !isKind(k)) {
    const near = typeof k === 'string' ? closestKey(k, KINDS) : undefined;
    return `record of unknown kind ${JSON.stringify(k)}${near ? ` (did you mean "${near}"?)` : ''}`;
  }
  let data = d;
  if (!FITS[k]?.(d)) {
    const parsed = (RECORD_SHAPES[k] as z.ZodType).safeParse(d);
    if (!parsed.success) return misfit(k, parsed.error);
    data = parsed.data;
  }
  const bytes = (BYTES as Partial<Record<RecordKind, string>>)[k];
  if (bytes === 'always' && !b) return `record "${k}" without the body bytes its kind carries`;
  if (!bytes && b) return `record "${k}" with bytes its kind never carries`;
  // The one place a kind and its data meet untyped: the data was just checked against the kind's shape.
  return (b ? { k, d: data, b } : { k, d: data }) as KeptRecord;
}

function misfit(k: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? `field ${formatPath(issue.path)}: ` : '';
  return `record "${k}" whose data does not fit its kind (${where}${issue.message})`;
}
