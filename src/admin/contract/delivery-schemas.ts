/**
 * Request and answer schemas of the admin API's delivery side: credentials, events, reservations,
 * notifications and their attempts, redelivery batches and the live stream's activities.
 */
import { z } from 'zod';
import { ADMIN_CHANGES } from '../../activity/types.js';
import { BOOKING_STATUSES, EVENT_TYPES, NotificationBodySchema } from '../../contract/index.js';
import { CredentialInputSchema } from '../../delivery/credential-schema.js';
import { ATTEMPT_TRIGGERS, CANCEL_REASONS, NOTIFICATION_STATES } from '../../delivery/notification.js';
import { OUTAGE_STATUSES, OutageInputSchema } from '../../delivery/outages.js';
import { NOT_ATTEMPTED_LIST_LIMIT, NOT_ATTEMPTED_REASONS } from '../../delivery/outbox.js';
import { ATTEMPT_OUTCOMES } from '../../delivery/outcome.js';
import { EventInputSchema } from '../../reservations/events.js';
import { component, instant, int, str } from './fields.js';
import { JournalEntrySchema } from './schemas.js';

const strings = z.array(str);
const bookingStatus = z.enum(BOOKING_STATUSES);

export const CredentialInputComponent = component('CredentialInput', CredentialInputSchema, 'input');
export const CredentialSchema = component(
  'Credential',
  z.object({
    id: str,
    apiKey: str,
    url: str,
    filters: z.object({ pcc: strings.optional(), idWeb: z.array(int).optional() }),
    warnings: strings,
  }),
);

const NotificationBodyComponent = component(
  'NotificationBody',
  NotificationBodySchema.describe(
    'the decompressed notification body (spec "Resources"); docs/notification.schema.json',
  ),
);

export const EventInputComponent = component(
  'EventInput',
  EventInputSchema.describe('bookingId is required for Void and Exchange'),
  'input',
);
export const NotificationRefSchema = z.object({
  id: str,
  credentialId: str,
  bookingId: int,
  state: z.enum(NOTIFICATION_STATES),
});
const reservationChange = z.object({ bookingId: int, bookingNumber: str, status: str });
export const EventResultSchema = component(
  'EventResult',
  z.object({
    event: str.describe(`${EVENT_TYPES.join(', ')} or Redeliver`),
    at: instant,
    reservations: z.array(reservationChange),
    notifications: z.array(NotificationRefSchema),
    routedTo: int.describe('number of credentials the event matched'),
    message: str.describe('e.g. "routed to 0 credentials"'),
    warnings: strings,
  }),
);

const reservationSummaryShape = {
  bookingId: int,
  bookingNumber: str,
  status: bookingStatus,
  updatedAt: instant.describe('UpdateDate of the last notification body (emulator time)'),
  exchangedTo: int.optional(),
  exchangedFrom: int.optional(),
};
export const ReservationSummarySchema = component('ReservationSummary', z.object(reservationSummaryShape));
export const HistoryEntrySchema = z.object({
  at: instant,
  event: z.enum([...EVENT_TYPES, 'Redeliver']),
  status: bookingStatus,
  warning: str.optional(),
});
export const ReservationSchema = component(
  'Reservation',
  z.object({
    ...reservationSummaryShape,
    body: NotificationBodyComponent,
    history: z.array(HistoryEntrySchema),
  }),
);
export const RedeliverInputSchema = component(
  'RedeliverInput',
  z.strictObject({ status: bookingStatus }),
  'input',
);

export const ResendInputSchema = component(
  'ResendInput',
  z.strictObject({
    body: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('the body to send instead (edited); validated against the contract, errors name the field'),
    credentialIds: z
      .array(str)
      .min(1)
      .max(100)
      .optional()
      .describe("where to send it (default: the notification's own credential)"),
  }),
  'input',
);
export const ResendResultSchema = component(
  'ResendResult',
  z.object({
    from: str.describe('the notification resent'),
    edited: z.boolean(),
    notifications: z.array(NotificationRefSchema).describe('the new notifications, one per credential'),
    message: str,
  }),
);
export const ResendFailedInputSchema = component(
  'ResendFailedInput',
  z.strictObject({
    credentialId: str,
    since: instant.describe('created at or after this emulator time'),
    dryRun: z.boolean().optional().describe('only count: nothing is sent'),
  }),
  'input',
);
export const ResendFailedResultSchema = component(
  'ResendFailedResult',
  z.object({
    count: int.describe('failed notifications found: exhausted, or pending after a failed attempt'),
    dryRun: z.boolean(),
    resent: z.array(NotificationRefSchema).describe('new notifications, one per exhausted one'),
    retried: z.array(str).describe('pending ones given one attempt now (retry now)'),
  }),
);

export const AttemptSchema = component(
  'Attempt',
  z.object({
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
  }),
);

const summaryShape = {
  ...NotificationRefSchema.shape,
  bookingNumber: str,
  bookingStatus,
  url: str,
  createdAt: instant,
  deliveredAt: instant.nullable(),
  exhaustedAt: instant.nullable(),
  cancelledAt: instant.nullable(),
  cancelReason: z
    .enum(CANCEL_REASONS)
    .nullable()
    .describe('why a cancelled notification is no longer redelivered: credential_deleted'),
  filename: str.describe('Content-Disposition filename, <yyyyMMdd_HHmmssZ>-<BookingNumber>.json'),
  warnings: strings,
  stateNote: str
    .nullable()
    .describe(
      'exhausted after attempts a crash cut off (they count toward the 5): "exhausted; 3 attempts cut off by a crash: the receiver may have acknowledged"; else null',
    ),
};
export const NotificationSummarySchema = component(
  'NotificationSummary',
  z.object({
    ...summaryShape,
    attemptCount: int,
    inFlight: z.boolean().describe('an attempt is queued or running'),
    lastAttempt: AttemptSchema.nullable(),
  }),
);
export const NotificationSchema = component(
  'Notification',
  z.object({
    ...summaryShape,
    headers: z.record(str, str).describe('exactly as sent on every attempt'),
    body: NotificationBodyComponent,
    attempts: z.array(AttemptSchema),
  }),
);
export const NotificationListSchema = component(
  'NotificationList',
  z.object({
    notifications: z.array(NotificationSummarySchema),
    settled: z.boolean().optional().describe('with wait=settled: false when timeoutMs passed first'),
    total: int.optional().describe('with limit or before: how many notifications match in all'),
    nextCursor: str
      .nullable()
      .optional()
      .describe('with limit or before: pass as before for the next, older page; null at the oldest'),
  }),
);
/** The class of a notification's last attempt: its status class, `network` (no status line), `none` (no attempt). */
export const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx', 'network', 'none'] as const;

/** The filters of the notification list and of its export (src/admin/notification-query.ts reads them). */
const notificationFilters = {
  state: z.enum(NOTIFICATION_STATES).optional().describe('only this state'),
  credentialId: str.optional().describe('only this credential'),
  bookingId: int.positive().optional().describe('only this reservation (a BookingID)'),
  bookingStatus: z.enum(BOOKING_STATUSES).optional().describe('only this BookingStatus (the event)'),
  statusClass: z
    .enum(STATUS_CLASSES)
    .optional()
    .describe('the last attempt: its status class, network (no status line) or none (no attempt yet)'),
  attempts: int.min(0).max(5).optional().describe('exactly this many attempts'),
  booking: str.optional().describe('part of a BookingNumber or BookingID'),
  since: instant.optional().describe('created at or after this emulator time'),
  until: instant.optional().describe('created before this emulator time'),
  sinceWall: instant.optional().describe('first attempt at or after this wall-clock time'),
  untilWall: instant.optional().describe('first attempt before this wall-clock time'),
  q: str
    .max(500)
    .optional()
    .describe(
      'search: words found in values of the decoded body (never key names), the id, BookingNumber, filename or credential; Path.To.Key:text for a value under that key path (Pax.LastName:Lubowitz); status:500, status:5xx or status:network for an attempt’s answer; all terms must hold; any case',
    ),
};

export const NotificationQuerySchema = z.object({
  ...notificationFilters,
  wait: z.literal('settled').optional().describe('wait until no matching attempt is queued or running'),
  timeoutMs: int.min(0).max(300_000).optional().describe('longest wait (default 10000); then settled=false'),
  limit: int
    .min(1)
    .max(1000)
    .optional()
    .describe('answer the newest limit matches only (oldest first), with total and nextCursor'),
  before: str.optional().describe('a nextCursor: the page of matches older than that notification'),
});
export const ExportQuerySchema = z.object({
  format: z.enum(['har', 'ndjson']).optional().describe('har (default) or ndjson'),
  ...notificationFilters,
});
export const ExportSchema = z
  .looseObject({ log: z.looseObject({ version: z.literal('1.2') }) })
  .describe(
    'HAR 1.2: one entry per attempt, the request as sent (postData.text the decompressed JSON) and the answer as kept; with format=ndjson, one Notification a line plus gzipBase64 (application/x-ndjson)',
  );
export const DeliveryStatsSchema = component(
  'DeliveryStats',
  z.object({
    credentialId: str,
    configured: z.boolean().describe('false for a credential deleted since its notifications were made'),
    notifications: int,
    delivered: int,
    pending: int,
    exhausted: int,
    cancelled: int,
    attempts: int,
    successfulAttempts: int.describe('attempts answered exactly 200'),
    successRate: z.number().nullable().describe('successfulAttempts / attempts; null without attempts'),
    lastFailure: z
      .object({
        notificationId: str,
        attempt: int,
        at: instant,
        outcome: z.enum(ATTEMPT_OUTCOMES),
        statusCode: int.nullable(),
        message: str,
      })
      .nullable(),
    nextBatchAt: instant
      .nullable()
      .describe('the next redelivery batch, when one of its notifications is pending'),
  }),
);
export const RetryResultSchema = component(
  'RetryResult',
  z.object({ attempt: AttemptSchema, notification: NotificationSummarySchema }),
);

const notAttemptedReason = z.enum(NOT_ATTEMPTED_REASONS);
export const NotAttemptedSchema = z.object({
  count: int,
  byReason: z.partialRecord(notAttemptedReason, int),
  notifications: z
    .array(z.object({ id: str, reason: notAttemptedReason, message: str }))
    .describe(`the first ${NOT_ATTEMPTED_LIST_LIMIT} pending notifications left out, each with why`),
});
export const BatchResultSchema = component(
  'BatchResult',
  z.object({
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
    notAttempted: NotAttemptedSchema.optional().describe('pending notifications left out, and why'),
  }),
);

export const ActivitySchema = component(
  'Activity',
  z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('event'),
        event: str.describe('Issue, Void, Exchange or Redeliver'),
        at: instant,
        reservations: z.array(reservationChange),
        notifications: strings,
        routedTo: int,
        credentials: strings.describe('ids of the credentials it was routed to'),
      }),
      z.object({ kind: z.literal('notification_created'), notification: NotificationSummarySchema }),
      z.object({
        kind: z.literal('attempt'),
        notification: NotificationSummarySchema,
        attempt: AttemptSchema,
      }),
      z.object({ kind: z.literal('batch'), batch: BatchResultSchema }),
      z.object({ kind: z.literal('clock'), from: instant, to: instant, batches: z.array(instant) }),
      z.object({ kind: z.literal('token'), entry: JournalEntrySchema }),
      z.object({
        kind: z.literal('admin'),
        change: z.enum(ADMIN_CHANGES),
        subject: str,
        detail: str.optional(),
      }),
      z.object({
        kind: z.literal('refused'),
        method: str,
        path: str,
        status: int.describe('the 4xx the admin call was answered'),
        code: str.describe('the problem code'),
        message: str.describe('the problem message'),
      }),
    ])
    .describe(
      'the data of one live-stream event (GET /stream); the SSE event name is its kind. Times are emulator time.',
    ),
);

export const OutageInputComponent = component(
  'OutageInput',
  OutageInputSchema.describe(
    'either attempts (count mode) or a window (from, until or for); no until or for: until deleted',
  ),
  'input',
);
export const OutageSchema = component(
  'Outage',
  z.object({
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
  }),
);
