/**
 * Each change kind's shape, per entity (decision 0248): the data of the change as the data dir keeps
 * it (format 3: one record per change, its kind the change's kind, checked by these shapes when read
 * back; decision 0230). A change that holds a notification names it by `id`; a body travels as the
 * record's bytes.
 */
import { z } from 'zod';
import { FaultSchema, JournalEntryShape, UserSchema } from './auth.js';
import { AdvanceResultShape, CLOCK_MODES } from './clock.js';
import { API_VERSIONS } from './constants.js';
import { CredentialInputSchema } from './credential.js';
import { AttemptShape, BatchResultShape, NOTIFICATION_STATES, OutageShape } from './delivery.js';
import { instant, int, str } from './fields.js';
import { CANCEL_REASONS, KEPT_MEMBER_SHAPES } from './notification.js';
import { HistoryEntryShape, reservationSummaryFields } from './reservation.js';
import { TrustedCertificateShape } from './trust.js';

/** Where the clock stood: emulator ms at wall ms (a compressed clock runs on from it at `hourMs`). */
export const ClockMarkShape = z.object({
  mode: z.enum(CLOCK_MODES),
  emuMs: z.number(),
  wallMs: z.number(),
  hourMs: z.number(),
});

/** Where a notification stands after a change; its records leave out the members that are null. */
export const settledFields = {
  state: z.enum(NOTIFICATION_STATES),
  deliveredAt: instant.nullish(),
  exhaustedAt: instant.nullish(),
  cancelledAt: instant.nullish(),
  cancelReason: z.enum(CANCEL_REASONS).nullish(),
  /** Pending, to be cancelled when its attempt in flight ends undelivered (decision 0224). */
  cancelWhenSettled: z.enum(CANCEL_REASONS).optional(),
  lastFinishedMs: z.number().optional(),
};
const SettledShape = z.object(settledFields);

/**
 * A notification as its record carries it: null members left out, no body bytes (`gzOf`: the body is
 * that reservation's latest one), warnings given or named by their credential (`warningsOf`).
 */
export const NotificationDataShape = z.object({
  ...KEPT_MEMBER_SHAPES,
  ...settledFields,
  authorization: str,
  attempts: z.array(AttemptShape).optional(),
  warnings: z.array(str).optional(),
  warningsOf: str.optional(),
  gzOf: int.optional(),
});

/** An attempt that started (its record is written before it is sent). */
export const StartedAttemptShape = AttemptShape.pick({
  number: true,
  startedAt: true,
  startedAtWall: true,
  trigger: true,
  batchAt: true,
});

/** A credential as kept: the admin input, plus the verify kit's flag. */
export const KeptCredentialShape = CredentialInputSchema.extend({
  id: str,
  omitAuthorization: z.literal(true).optional(),
});

/**
 * A reservation's state; its gzipped body travels as the record's bytes. A snapshot's record holds
 * the whole history; a journal's, from the second save on, only the entries the save appended: those
 * before `historyFrom` are the previous record's.
 */
export const ReservationDataShape = z.object({
  record: z.object({ ...reservationSummaryFields, history: z.array(HistoryEntryShape) }),
  sequence: int,
  historyFrom: int.optional(),
});

/** Each rule as the fault store lists it, its members in the same order (a restart answers the same JSON). */
const KeptFaultShape = z.object({ id: str, ...FaultSchema.shape, remaining: int.nullable(), matched: int });
const faults = z.array(KeptFaultShape);
const outages = z.array(OutageShape);
const user = z.object({ user: UserSchema });
const credential = z.object({ credential: KeptCredentialShape });

/**
 * The data of each kind of change as the journal keeps it. Every change kind but `event_routed` (its
 * reservations and notifications are changes of their own): src/store/kinds.ts does not compile
 * while a kept kind lacks its shape, and test/persistence-record-kinds.test.ts checks the same at run time.
 */
export const CHANGE_SHAPES = {
  user_added: user,
  user_replaced: user,
  user_removed: z.object({ username: str }),
  credential_added: credential,
  credential_replaced: credential,
  credential_removed: z.object({ id: str }),
  trust_added: z.object({ certificate: TrustedCertificateShape, pem: str }),
  trust_removed: z.object({ certificate: TrustedCertificateShape }),
  fault_added: z.object({ fault: KeptFaultShape, faults }),
  fault_removed: z.object({ id: str, faults }),
  faults_cleared: z.object({ faults }),
  fault_used: z.object({ faults }),
  outage_added: z.object({ outage: OutageShape, outages }),
  outage_removed: z.object({ id: str, outages }),
  outages_cleared: z.object({ outages }),
  outage_used: z.object({ outages }),
  outages_of_credential_removed: z.object({ credentialId: str, outages }),
  token_issued: z.object({
    token: str,
    username: str,
    version: z.enum(API_VERSIONS),
    issuedAtMs: z.number(),
  }),
  token_revoked: z.object({ token: str }),
  call_journaled: z.object({ entry: JournalEntryShape }),
  reservation_saved: ReservationDataShape,
  notification_created: z.object({ notification: NotificationDataShape }),
  attempt_started: z.object({ id: str, attempt: StartedAttemptShape }),
  attempt_ended: z.object({ id: str, attempt: AttemptShape, settled: SettledShape }),
  notification_cancelled: z.object({ id: str, settled: SettledShape }),
  batch_started: z.object({ at: instant }),
  batch_done: z.object({ result: BatchResultShape }),
  /** Dropped by the retention setting; `dropped` is the count so far, `ids` the ones dropped now. */
  notifications_dropped: z.object({ ids: z.array(str), dropped: int }),
  reset: z.object({}),
  /** The clock's changes carry where it stood (a restart starts it there). */
  clock_started: z.object({ mark: ClockMarkShape }),
  clock_advanced: AdvanceResultShape.extend({ mark: ClockMarkShape }),
} as const;

/** A change as the journal keeps it: its kind and its data (the change but its `kind`). */
export type KeptChange = {
  [K in keyof typeof CHANGE_SHAPES]: { k: K; d: z.output<(typeof CHANGE_SHAPES)[K]> };
}[keyof typeof CHANGE_SHAPES];

export type ClockMark = z.output<typeof ClockMarkShape>;
export type NotificationData = z.output<typeof NotificationDataShape>;
