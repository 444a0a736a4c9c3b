/**
 * The kinds of record a data dir keeps (decision 0080, 0101), defined once: each kind's data as a zod
 * shape. `KeptRecord` (kind → data) is derived from it and is what `recordOf` (src/store/keep.ts)
 * and the snapshot (src/store/snapshot.ts) write and what replay (src/store/replay.ts) applies, with
 * an exhaustive switch; `keptRecord` checks a record read from disk against its kind's shape.
 */
import { z } from 'zod';
import { FaultSchema } from '../auth/faults.js';
import { API_VERSIONS } from '../auth/types.js';
import { UserSchema } from '../auth/users.js';
import { closestKey } from '../config/closest-key.js';
import { CredentialInputSchema } from '../delivery/credential-schema.js';
import { CANCEL_REASONS } from '../delivery/notification.js';
import { formatPath } from '../errors.js';
import { JournalEntryShape } from '../model/auth.js';
import { CLOCK_MODES } from '../model/clock.js';
import { AttemptShape, BatchResultShape, NOTIFICATION_STATES, OutageShape } from '../model/delivery.js';
import { instant, int, str } from '../model/fields.js';
import { KEPT_MEMBER_SHAPES } from '../model/notification.js';
import { HistoryEntryShape, reservationSummaryFields } from '../model/reservation.js';
import { TRUST_SOURCES } from '../model/trust.js';

/** Where the clock stood: emulator ms at wall ms (a compressed clock runs on from it at `hourMs`). */
const ClockMarkShape = z.object({
  mode: z.enum(CLOCK_MODES),
  emuMs: z.number(),
  wallMs: z.number(),
  hourMs: z.number(),
});

/** A token as the token store keeps it. */
const KeptTokenShape = z.object({
  token: str,
  username: str,
  version: z.enum(API_VERSIONS),
  issuedAtMs: z.number(),
  revoked: z.boolean(),
});

/** The members a notification's records leave out when they are null (`deliveredAt`, …). */
const settledFields = {
  deliveredAt: instant.nullish(),
  exhaustedAt: instant.nullish(),
  cancelledAt: instant.nullish(),
  cancelReason: z.enum(CANCEL_REASONS).nullish(),
  /** Pending, to be cancelled when its attempt in flight ends undelivered (decision 0224). */
  cancelWhenSettled: z.enum(CANCEL_REASONS).optional(),
  lastFinishedMs: z.number().optional(),
};

/**
 * A notification as its record carries it: null members left out, no body bytes (`gzOf`: the body is
 * that reservation's latest one), warnings given or named by their credential (`warningsOf`).
 */
const NotificationDataShape = z.object({
  ...KEPT_MEMBER_SHAPES,
  authorization: str,
  /** Pending, to be cancelled when its attempt in flight ends undelivered (decision 0224). */
  cancelWhenSettled: z.enum(CANCEL_REASONS).optional(),
  lastFinishedMs: z.number().optional(),
  attempts: z.array(AttemptShape).optional(),
  warnings: z.array(str).optional(),
  warningsOf: str.optional(),
  gzOf: int.optional(),
});

/** What a notification's change record carries: its state, and the attempt that ended. */
const NotificationChangeShape = z.object({
  id: str,
  state: z.enum(NOTIFICATION_STATES),
  ...settledFields,
  attempt: AttemptShape.optional(),
});

/** An attempt that started (its record is written before it is sent). */
const StartedAttemptShape = AttemptShape.pick({
  number: true,
  startedAt: true,
  startedAtWall: true,
  trigger: true,
  batchAt: true,
});

/** Each kind of record and the shape of its data. */
export const RECORD_SHAPES = {
  clock: ClockMarkShape,
  'user+': UserSchema,
  'user-': z.object({ username: str }),
  'cred+': CredentialInputSchema.extend({ id: str, omitAuthorization: z.literal(true).optional() }),
  'cred-': z.object({ id: str }),
  'trust+': z.object({ text: str, source: z.enum(TRUST_SOURCES), fingerprint: str }),
  'trust-': z.object({ fingerprint: str }),
  /** Each rule as the fault store lists it, its members in the same order (a restart answers the same JSON). */
  faults: z.object({
    faults: z.array(z.object({ id: str, ...FaultSchema.shape, remaining: int.nullable(), matched: int })),
  }),
  outages: z.object({ outages: z.array(OutageShape) }),
  /**
   * A reservation's state; its gzipped body travels as the record's bytes. A snapshot's record holds
   * the whole history; a journal's, from the second save on, only the entries the save appended:
   * those before `historyFrom` are the previous record's (data dir format 2).
   */
  res: z.object({
    record: z.object({ ...reservationSummaryFields, history: z.array(HistoryEntryShape) }),
    sequence: int,
    historyFrom: int.optional(),
  }),
  'n+': NotificationDataShape,
  'a>': z.object({ id: str, attempt: StartedAttemptShape }),
  n: NotificationChangeShape,
  /** Dropped by the retention setting; `dropped` is the count so far, `ids` the ones dropped now. */
  'n-': z.object({ ids: z.array(str), dropped: int }),
  'b>': z.object({ at: instant }),
  b: BatchResultShape,
  req: JournalEntryShape,
  tok: KeptTokenShape,
  'tok-': z.object({ token: str }),
  reset: z.object({}),
} as const;

/** The kinds whose record carries bytes (a gzipped body): `res` always, `n+` when not shared. */
const BYTES: { readonly [K in RecordKind]?: 'always' | 'maybe' } = { res: 'always', 'n+': 'maybe' };

export type RecordKind = keyof typeof RECORD_SHAPES;
export type RecordData<K extends RecordKind> = z.output<(typeof RECORD_SHAPES)[K]>;

/** One record of a kind: its data, and its bytes for the kinds that carry them. */
type RecordOf<K extends RecordKind, B = Buffer> = { k: K; d: RecordData<K> } & (K extends 'res'
  ? { b: B }
  : K extends 'n+'
    ? { b?: B | undefined }
    : { b?: undefined });

/** Every record the journal and a snapshot hold: a union over the kinds, discriminated by `k`. */
export type KeptRecord = { [K in RecordKind]: RecordOf<K> }[RecordKind];

/**
 * A record's bytes on their way to disk: a Buffer, or a stored body (src/contract/body-file.ts),
 * copied from where it is kept straight into the encoded record.
 */
export interface OutgoingBytes {
  readonly length: number;
  copy(target: Uint8Array, targetStart: number): number;
}

/** A record as it is written: a kept record whose bytes may still be where they are kept. */
export type OutgoingRecord = { [K in RecordKind]: RecordOf<K, OutgoingBytes> }[RecordKind];

export type ClockMark = RecordData<'clock'>;
export type NotificationData = RecordData<'n+'>;
export type NotificationChange = RecordData<'n'>;

/** The first record of a snapshot file: which generation it is, and when it was written. */
const SnapshotHeaderShape = z.object({ generation: int, format: int, at: str });
export interface SnapshotHeader {
  k: 'snapshot';
  d: z.output<typeof SnapshotHeaderShape>;
  b?: undefined;
}

const KINDS = Object.keys(RECORD_SHAPES) as RecordKind[];

/**
 * Reading a kind's data: a plain predicate compiled from its shape (no allocation; the data is kept
 * as read), else zod itself, which also says what does not fit. Measured (docs/perf-budget.md): zod
 * alone made reading 100,000 notifications back ~2.4× the cost of their JSON.parse.
 */
const READERS = Object.fromEntries(
  KINDS.map((k): [RecordKind, Reader] => [
    k,
    { fits: plainCheck(RECORD_SHAPES[k]), shape: RECORD_SHAPES[k] },
  ]),
) as Record<RecordKind, Reader>;

interface Reader {
  fits: Check | undefined;
  shape: z.ZodType;
}
const isKind = (k: string): k is RecordKind => Object.hasOwn(RECORD_SHAPES, k);

/**
 * The record `k`/`d`/`b` read from disk, checked against its kind's shape (the data as zod answers
 * it), or why it is not one: an unknown kind (naming the closest known one), data that does not
 * fit, or bytes missing or unexpected. `header`: the first record of a snapshot, which must be one.
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
  const reader = READERS[k];
  let data = d;
  if (!reader.fits?.(d)) {
    const parsed = reader.shape.safeParse(d);
    if (!parsed.success) return misfit(k, parsed.error);
    data = parsed.data;
  }
  const bytes = BYTES[k];
  if (bytes === 'always' && !b) return `record "${k}" without the body bytes its kind carries`;
  if (!bytes && b) return `record "${k}" with bytes its kind never carries`;
  // The one place a kind and its data meet untyped: the data was just checked against the kind's shape.
  return (b ? { k, d: data, b } : { k, d: data }) as KeptRecord;
}

type Check = (v: unknown) => boolean;

/** What `plainCheck` reads of a zod 4 schema's definition. */
interface PlainDef {
  type: string;
  checks?: unknown[];
  format?: string;
  entries?: Record<string, unknown>;
  values?: unknown[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A predicate true exactly when zod would answer `schema`'s parse with the input unchanged, for the
 * plain shapes records use (objects without unknown members, strings, numbers, safe integers,
 * booleans, enums, literals, optional, nullable, arrays, records); undefined when the schema holds
 * anything else (a check, a transform, a default, a strict object): zod reads those kinds.
 */
function plainCheck(schema: z.ZodType): Check | undefined {
  const def = schema._zod.def as PlainDef;
  if (def.checks?.length) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      if (def.format === 'safeint') return Number.isSafeInteger;
      return def.format === undefined ? Number.isFinite : undefined;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'optional':
    case 'nullable': {
      const inner = def.innerType && plainCheck(def.innerType);
      if (!inner) return undefined;
      return def.type === 'optional' ? (v) => v === undefined || inner(v) : (v) => v === null || inner(v);
    }
    case 'array': {
      const element = def.element && plainCheck(def.element);
      if (!element) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return false;
        // A loop, not every(): every() skips the holes of a sparse array, which zod reads as undefined.
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'record': {
      const key = def.keyType && plainCheck(def.keyType);
      const value = def.valueType && plainCheck(def.valueType);
      if (!key || !value) return undefined;
      return (v) => isObject(v) && Object.keys(v).every((k) => key(k) && value(v[k]));
    }
    case 'object': {
      if (def.catchall !== undefined || !def.shape) return undefined;
      const members: Array<[string, Check]> = [];
      for (const [name, member] of Object.entries(def.shape)) {
        const check = plainCheck(member);
        if (!check) return undefined;
        members.push([name, check]);
      }
      const known = new Set(members.map(([name]) => name));
      return (v) => {
        if (!isObject(v)) return false;
        for (const [name, check] of members) if (!check(v[name])) return false;
        // A member zod would drop: zod reads it.
        for (const name in v) if (!known.has(name)) return false;
        return true;
      };
    }
    default:
      return undefined;
  }
}

function misfit(k: string, error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? `field ${formatPath(issue.path)}: ` : '';
  return `record "${k}" whose data does not fit its kind (${where}${issue.message})`;
}
