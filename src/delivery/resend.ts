/**
 * Resend: a new notification with the body of one already made (as sent, or edited) to chosen
 * credentials, the way webhook tools resend a message to one endpoint; and the bulk form, "every failed
 * delivery of credential C since T". The reservation is not touched (manual redelivery through
 * `POST /__admin/reservations/:bookingId/redeliver` changes its status; this does not).
 *
 * No copy the user did not ask for (decision 0200): a resend takes the place of a pending original
 * (cancelled, reason `resent`) unless `keepOriginal`; a dry run says so, and which credentials get
 * what, before anything is sent; a bulk retry takes each failed delivery once, however often it is
 * called, because it skips any whose resend is pending, in flight, acknowledged or failed too.
 */
import {
  assertValidBody,
  type BookingStatus,
  type NotificationBody,
  NotificationBodyStrictSchema,
  unpackBody,
} from '../contract/index.js';
import { InputError, NotFoundError } from '../errors.js';
import type { CredentialStore } from './credentials.js';
import type { NotificationRecord, NotificationState } from './notification.js';
import type { Outbox, RetentionView } from './outbox.js';
import { Slices } from './slices.js';

/** What becomes of a resend's original. */
export const ORIGINAL_FATES = ['cancelled', 'cancelled_when_attempt_ends', 'kept', 'unchanged'] as const;
export type OriginalFate = (typeof ORIGINAL_FATES)[number];

/** Why a bulk retry left a failed notification out. */
export const BULK_SKIP_REASONS = [
  'resend_pending',
  'resend_in_flight',
  'resend_acknowledged',
  'resend_failed_too',
  'attempt_in_flight',
] as const;
export type BulkSkipReason = (typeof BULK_SKIP_REASONS)[number];

/** The reservation's status now, or undefined when the emulator has no such reservation (any more). */
export type StatusNow = (bookingId: number) => BookingStatus | undefined;

export interface ResendInput {
  /** The body to send instead of the original's (edited); validated against the contract. */
  body?: unknown;
  /** Where to send it; default: the original's credential. */
  credentialIds?: readonly string[];
  /** Keep a pending original redelivered by the batches (default: the resend takes its place). */
  keepOriginal?: boolean;
  /** Only say what would happen. */
  dryRun?: boolean;
}

export interface ResendResult {
  from: string;
  edited: boolean;
  dryRun: boolean;
  notifications: NotificationRecord[];
  original: { id: string; state: NotificationState; becomes: OriginalFate };
  targets: Array<{ credentialId: string; body: 'as sent' | 'edited' }>;
  warnings: string[];
}

/** Resends notification `id` (see the file comment); 404 for an unknown id, 400 for an unknown credential or an invalid body. */
export function resend(
  outbox: Outbox,
  credentials: CredentialStore,
  statusNow: StatusNow,
  id: string,
  input: ResendInput,
): ResendResult {
  const original = outbox.get(id);
  if (!original) throw new NotFoundError('notification_not_found', `No notification with id "${id}".`);
  const ids = input.credentialIds ?? [original.credentialId];
  if (ids.length === 0) {
    throw new InputError('invalid_resend', 'credentialIds: name at least one credential (or leave it out).', {
      path: 'credentialIds',
    });
  }
  const known = credentials.list();
  const targets = [...new Set(ids)].map((cid) => {
    const credential = known.find((c) => c.id === cid);
    if (!credential) {
      throw new InputError(
        'invalid_resend',
        `credentialIds: no credential "${cid}"${cid === original.credentialId ? ' (it was deleted since)' : ''}.`,
        { path: 'credentialIds', accepted: known.map((c) => c.id) },
      );
    }
    return credential;
  });
  const edited = input.body !== undefined;
  const body: NotificationBody = edited
    ? assertValidBody(NotificationBodyStrictSchema, input.body, 'The edited body')
    : unpackBody(original.gz);
  const warnings = statusWarnings(original, body, statusNow);
  const state = original.state;
  const dryRun = input.dryRun === true;
  const plan = {
    from: original.id,
    edited,
    dryRun,
    targets: targets.map((c) => ({
      credentialId: c.id,
      body: edited ? ('edited' as const) : ('as sent' as const),
    })),
    warnings,
  };
  if (dryRun) {
    return { ...plan, notifications: [], original: { id, state, becomes: fateOf(original, input) } };
  }
  // Unedited, the very bytes sent before go out again.
  const gz = edited ? undefined : original.gz;
  const notifications = targets.map((credential) =>
    outbox.create(credential, original.bookingId, body, gz, original.id, warnings),
  );
  // Only once the resends exist (a data dir that refused one leaves the original as it was).
  const becomes = input.keepOriginal === true && state === 'pending' ? 'kept' : outbox.supersede(original);
  return { ...plan, notifications, original: { id, state, becomes } };
}

/** What a resend would do to `n` (the dry run's answer; `Outbox.supersede` does it). */
function fateOf(n: NotificationRecord, input: ResendInput): OriginalFate {
  if (n.state !== 'pending') return 'unchanged';
  if (input.keepOriginal === true) return 'kept';
  return n.inFlight ? 'cancelled_when_attempt_ends' : 'cancelled';
}

/** The warning when the reservation's status is no longer the one the body sends. */
function statusWarnings(n: NotificationRecord, body: NotificationBody, statusNow: StatusNow): string[] {
  const now = statusNow(n.bookingId);
  const sent = body.Reservation.BookingStatus;
  if (now === undefined || now === sent) return [];
  return [
    `Reservation ${n.bookingId} (${n.bookingNumber}) is ${now} now; this resend sends it as ${sent}, so the receiver will read the booking as ${sent} again. To send its current status, redeliver the reservation (POST /__admin/reservations/${n.bookingId}/redeliver).`,
  ];
}

/** One sentence naming an original's fate, for the answer's message and the dashboard. */
export function fateSentence(original: ResendResult['original']): string {
  switch (original.becomes) {
    case 'cancelled':
      return `the original ${original.id} (pending) stops being redelivered: it is cancelled, reason "resent"`;
    case 'cancelled_when_attempt_ends':
      return `the original ${original.id} stops being redelivered once its running attempt ends (cancelled, reason "resent", unless that attempt delivers it)`;
    case 'kept':
      return `the original ${original.id} stays pending and the batches still redeliver it (keepOriginal)`;
    case 'unchanged':
      return `the original ${original.id} stays ${original.state}`;
  }
}

/** Which notifications a bulk resend takes: a credential's failed ones created at or after `since`. */
export interface BulkResendInput {
  credentialId: string;
  /** Emulator time, epoch ms. */
  sinceMs: number;
  dryRun: boolean;
}

export interface BulkSkip {
  id: string;
  reason: BulkSkipReason;
  by: string | null;
  message: string;
}

export interface BulkResendResult {
  count: number;
  ids: string[];
  dryRun: boolean;
  resent: NotificationRecord[];
  retried: string[];
  skipped: BulkSkip[];
  /** What the retention setting dropped or keeps for a retry, once it did either (decision 0211). */
  retention?: RetentionView;
}

/**
 * Failed: exhausted (nothing retries it any more), or pending after a failed attempt. The one
 * failed delivery of a chain of resends is its newest member.
 */
function failedSince(outbox: Outbox, input: BulkResendInput): NotificationRecord[] {
  return outbox
    .list({ credentialId: input.credentialId })
    .filter(
      (n) =>
        Date.parse(n.createdAt) >= input.sinceMs &&
        (n.state === 'exhausted' || (n.state === 'pending' && n.attempts.length > 0)),
    );
}

/** Why `n` is not taken by a bulk retry, or undefined when it is. */
function skipOf(outbox: Outbox, n: NotificationRecord): BulkSkip | undefined {
  const stand = standIn(outbox, n);
  if (stand) {
    const [by, reason] = stand;
    const said: Record<BulkSkipReason, string> = {
      resend_pending: `its resend ${by.id} is pending`,
      resend_in_flight: `an attempt of its resend ${by.id} is running`,
      resend_acknowledged: `its resend ${by.id} was acknowledged`,
      resend_failed_too: `its resend ${by.id} failed too and is taken instead`,
      attempt_in_flight: '',
    };
    return { id: n.id, reason, by: by.id, message: `${n.id}: ${said[reason]}.` };
  }
  if (n.state === 'pending' && n.inFlight) {
    return {
      id: n.id,
      reason: 'attempt_in_flight',
      by: null,
      message: `${n.id}: an attempt of it is queued or running.`,
    };
  }
  return undefined;
}

/**
 * The resend (to `n`'s own credential, at any depth) that stands for `n`: one pending or acknowledged,
 * else the newest that failed too (itself taken by the same bulk retry).
 */
function standIn(outbox: Outbox, n: NotificationRecord): [NotificationRecord, BulkSkipReason] | undefined {
  let failedToo: NotificationRecord | undefined;
  for (const r of outbox.resendsOf(n.id)) {
    if (r.credentialId !== n.credentialId) continue;
    if (r.state === 'delivered') return [r, 'resend_acknowledged'];
    if (r.state === 'pending') return [r, r.inFlight ? 'resend_in_flight' : 'resend_pending'];
    const deeper = standIn(outbox, r);
    if (deeper && deeper[1] !== 'resend_failed_too') return deeper;
    if (r.state === 'exhausted') failedToo = deeper?.[0] ?? r;
    else if (deeper) failedToo = deeper[0];
  }
  return failedToo ? [failedToo, 'resend_failed_too'] : undefined;
}

/** The event loop is given back after this much work (decision 0200: never held more than ~50 ms). */
const SLICE_MS = 10;

/**
 * Bulk retry: each failed notification of the credential since T is resent (exhausted) or retried now
 * (pending), unless `skipOf` says why not (`bulkRetry`).
 */
export function resendFailed(
  outbox: Outbox,
  credentials: CredentialStore,
  statusNow: StatusNow,
  input: BulkResendInput,
): Promise<BulkResendResult> {
  return bulkRetry(outbox, credentials, statusNow, failedSince(outbox, input), input.dryRun);
}

/**
 * Each of `candidates` still failed is resent (exhausted) or retried now (pending), unless `skipOf`
 * says why not. It runs in slices that yield; each notification is decided and acted on in one
 * synchronous step, so concurrent calls, and a call replayed after a crash (the resends made before
 * it are read back from the data dir), never take one twice.
 */
export async function bulkRetry(
  outbox: Outbox,
  credentials: CredentialStore,
  statusNow: StatusNow,
  candidates: readonly NotificationRecord[],
  dryRun: boolean,
): Promise<BulkResendResult> {
  const result: BulkResendResult = { count: 0, ids: [], dryRun, resent: [], retried: [], skipped: [] };
  const slices = new Slices(SLICE_MS);
  for (const n of candidates) {
    if (slices.over()) await slices.turn();
    // Settled since the list was made (by a concurrent call or a batch): not failed any more.
    if (n.state !== 'exhausted' && n.state !== 'pending') continue;
    const skip = skipOf(outbox, n);
    if (skip) {
      result.skipped.push(skip);
      continue;
    }
    result.ids.push(n.id);
    if (dryRun) continue;
    if (n.state === 'exhausted') {
      result.resent.push(...resend(outbox, credentials, statusNow, n.id, {}).notifications);
    } else {
      result.retried.push(n.id);
      // Answered at once; each attempt ends as data on the notification (never thrown past here).
      outbox.retryNow(n.id).catch(() => {});
    }
  }
  result.count = result.ids.length;
  // A failed notification that retention already dropped can no longer be taken: say so.
  const retention = outbox.retention();
  if (retention.dropped > 0 || retention.exhaustedKept > 0) result.retention = retention;
  return result;
}

/**
 * Whether `n` is failing: exhausted or pending after a failed attempt, and no resend of it to its own
 * credential is pending, in flight or acknowledged (one that failed too stands for it instead).
 */
export function failing(outbox: Outbox, n: NotificationRecord): boolean {
  if (n.state !== 'exhausted' && !(n.state === 'pending' && n.attempts.length > 0)) return false;
  return standIn(outbox, n) === undefined;
}
