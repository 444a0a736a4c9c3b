/**
 * The delivery engine's shapes (zod): an attempt, a batch's result, an outage. src/delivery types its
 * records with them and the admin contract names them as components of its answers.
 */
import { z } from 'zod';
import { ATTEMPT_OUTCOMES } from './constants.js';
import { instant, int, str } from './fields.js';

/**
 * A notification's state: `pending` → `delivered` | `exhausted` | `cancelled` (docs/delivery.md
 * "States and redelivery"); the last three are final. `cancelled`: no longer redelivered.
 */
export const NOTIFICATION_STATES = ['pending', 'delivered', 'exhausted', 'cancelled'] as const;

/** A notification as an event's answer names it. */
export const NotificationRefShape = z.object({
  id: str,
  credentialId: str,
  bookingId: int,
  state: z.enum(NOTIFICATION_STATES),
});

/**
 * What started an attempt: the event itself (`first`), a redelivery batch (`batch`), or the admin
 * API's retry now (`manual`, outside the batch schedule; it counts toward the 5 attempts).
 */
export const ATTEMPT_TRIGGERS = ['first', 'batch', 'manual'] as const;

export const AttemptShape = z.object({
  number: int.describe(
    '1 for the first attempt, 2-5 for redeliveries; an interrupted attempt takes a number but does not count toward the 5',
  ),
  startedAt: instant,
  startedAtWall: z.string().meta({ format: 'date-time', description: 'wall-clock time' }),
  finishedAt: instant,
  durationMs: int,
  trigger: z
    .enum(ATTEMPT_TRIGGERS)
    .describe('first: the event; batch: a redelivery batch (see batchAt); manual: retry now'),
  batchAt: instant.optional().describe('the batch instant, for batch attempts'),
  outcome: z.enum(ATTEMPT_OUTCOMES),
  statusCode: int.optional(),
  message: str,
  responseBody: str.optional().describe('first 4 KiB of the answer'),
  responseHeaders: z
    .record(str, str)
    .optional()
    .describe('the answer\'s headers (lower-case names, repeated ones joined by ", "), up to 4 KiB'),
  outageId: str.optional().describe('the outage (POST /outages) that failed it without sending'),
});

/** How many not-attempted notifications a batch result lists one by one (all are counted). */
export const NOT_ATTEMPTED_LIST_LIMIT = 100;

/** Why a batch did not attempt a pending notification (docs/delivery.md "States and redelivery"). */
export const NOT_ATTEMPTED_REASONS = ['in_flight', 'failed_at_or_after_batch', 'credential_deleted'] as const;

const notAttemptedReason = z.enum(NOT_ATTEMPTED_REASONS);
export const NotAttemptedShape = z.object({
  count: int,
  byReason: z.partialRecord(notAttemptedReason, int),
  notifications: z
    .array(z.object({ id: str, reason: notAttemptedReason, message: str }))
    .describe(`the first ${NOT_ATTEMPTED_LIST_LIMIT} pending notifications left out, each with why`),
});

export const BatchResultShape = z.object({
  at: instant,
  attempted: int,
  delivered: int,
  failed: int,
  exhausted: int,
  skipped: z.boolean().optional().describe('the instant passed without a batch (see reason)'),
  reason: str
    .optional()
    .describe(
      'why the batch was skipped (e.g. previous batch still running; the emulator was not running), or cut off (interrupted: …, with --data-dir)',
    ),
  notAttempted: NotAttemptedShape.optional().describe('pending notifications left out, and why'),
});

/** What an outage is doing: `scheduled` (window not begun), `active`, or `ended` (window passed or count used up). */
export const OUTAGE_STATUSES = ['scheduled', 'active', 'ended'] as const;

export const OutageShape = z.object({
  id: str,
  credentialId: str.nullable().describe('the credential it applies to, or null for every credential'),
  attempts: int.nullable().describe('count mode: how many attempts it fails in all; null in window mode'),
  remaining: int.nullable().describe('count mode: attempts it still fails; null in window mode'),
  from: instant.nullable().describe('window mode: first instant it applies; null in count mode'),
  until: instant
    .nullable()
    .describe('window mode: the instant it stops applying (exclusive), or null: until deleted'),
  note: str.nullable(),
  createdAt: instant,
  failedAttempts: int.describe('attempts it failed so far'),
  status: z.enum(OUTAGE_STATUSES).describe('scheduled (window not begun), active, or ended'),
});
