/**
 * Request and answer schemas of the admin API's delivery side: credentials, events, reservations,
 * notifications and their attempts, redelivery batches and the live stream's activities.
 */
import { z } from 'zod';
import { ADMIN_CHANGES } from '../../activity/types.js';
import { InstantInput } from '../../clock/bounds.js';
import { BOOKING_STATUSES, EVENT_TYPES, NotificationBodySchema } from '../../contract/index.js';
import { CredentialInputSchema } from '../../delivery/credential-schema.js';
import { NOTIFICATION_STATES } from '../../delivery/notification.js';
import { OutageInputSchema } from '../../delivery/outages.js';
import { ATTEMPT_OUTCOMES } from '../../delivery/outcome.js';
import { BULK_SKIP_REASONS, ORIGINAL_FATES } from '../../delivery/resend.js';
import { TIMELINE_BUCKETS } from '../../delivery/stats.js';
import { TRIAGE_IDS_PER_GROUP } from '../../delivery/triage.js';
import { formatPath } from '../../errors.js';
import { AttemptShape, BatchResultShape, NotificationRefShape, OutageShape } from '../../model/delivery.js';
import { NotificationDetailMembers, NotificationSummaryShape } from '../../model/notification.js';
import type { Refusal } from '../../model/refusal.js';
import {
  HistoryEntryShape,
  ReservationSummaryShape,
  reservationSummaryFields,
} from '../../model/reservation.js';
import { EventInputSchema } from '../../reservations/events.js';
import { ADMIN_COMPONENTS, instant, int, PAGE_FIELDS, PAGE_LIMIT, PAGE_QUERY, str } from './fields.js';
import { JournalEntrySchema } from './schemas.js';

const strings = z.array(str);
const bookingStatus = z.enum(BOOKING_STATUSES);

export const CredentialInputComponent = CredentialInputSchema.register(ADMIN_COMPONENTS, {
  id: 'CredentialInput',
  side: 'input',
});
export const CredentialSchema = z
  .object({
    id: str,
    apiKey: str,
    url: str,
    filters: z.object({ pcc: strings.optional(), idWeb: z.array(int).optional() }),
    warnings: strings,
  })
  .register(ADMIN_COMPONENTS, { id: 'Credential' });

const NotificationBodyComponent = NotificationBodySchema.describe(
  'the decompressed notification body (spec "Resources"); docs/notification.schema.json',
).register(ADMIN_COMPONENTS, { id: 'NotificationBody' });

export const EventInputComponent = EventInputSchema.describe(
  'bookingId is required for Void and Exchange',
).register(ADMIN_COMPONENTS, { id: 'EventInput', side: 'input' });
export const NotificationRefSchema = NotificationRefShape;
const reservationChange = z.object({ bookingId: int, bookingNumber: str, status: str });
export const EventResultSchema = z
  .object({
    event: str.describe(`${EVENT_TYPES.join(', ')} or Redeliver`),
    at: instant,
    reservations: z.array(reservationChange),
    notifications: z.array(NotificationRefSchema),
    routedTo: int.describe('number of credentials the event matched'),
    message: str.describe('e.g. "routed to 0 credentials"'),
    warnings: strings,
  })
  .register(ADMIN_COMPONENTS, { id: 'EventResult' });

export const ReservationSummarySchema = ReservationSummaryShape.register(ADMIN_COMPONENTS, {
  id: 'ReservationSummary',
});
const HistoryEntrySchema = HistoryEntryShape;
export const ReservationSchema = z
  .object({
    ...reservationSummaryFields,
    body: NotificationBodyComponent,
    history: z.array(HistoryEntrySchema),
  })
  .register(ADMIN_COMPONENTS, { id: 'Reservation' });
export const RedeliverInputSchema = z
  .strictObject({
    status: bookingStatus,
    keepPending: z
      .boolean()
      .optional()
      .describe(
        'keep the booking\'s pending notifications redelivered by the batches; default false: each one of a credential the redelivery goes to is cancelled (reason "resent")',
      ),
  })
  .register(ADMIN_COMPONENTS, { id: 'RedeliverInput', side: 'input' });

/** A redelivery without one of the statuses. */
export const REDELIVER_REFUSAL: Refusal = {
  code: 'invalid_redeliver',
  words: (issue) => ({
    message: `${formatPath(issue.path)}: expected one of ${BOOKING_STATUSES.join(', ')}.`,
    details: { path: formatPath(issue.path), accepted: BOOKING_STATUSES },
  }),
};

/** A resend (one, or every failed one) its schema refuses: the field and what is wrong with it. */
export const RESEND_REFUSAL: Refusal = {
  code: 'invalid_resend',
  words: (issue, message) => {
    const path = formatPath(issue.path);
    return { message: `${path}: ${message}.`, details: { path } };
  },
};

export const ResendInputSchema = z
  .strictObject({
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
    keepOriginal: z
      .boolean()
      .optional()
      .describe(
        'keep a pending original redelivered by the batches; default false: the resend takes its place and it is cancelled (reason "resent")',
      ),
    dryRun: z.boolean().optional().describe('only say what would happen: nothing is sent or cancelled'),
  })
  .register(ADMIN_COMPONENTS, { id: 'ResendInput', side: 'input' });
export const ResendResultSchema = z
  .object({
    from: str.describe('the notification resent'),
    edited: z.boolean(),
    dryRun: z.boolean(),
    notifications: z
      .array(NotificationRefSchema)
      .describe('the new notifications, one per credential (none in a dry run)'),
    original: z
      .object({
        id: str,
        state: z.enum(NOTIFICATION_STATES).describe('its state before the resend'),
        becomes: z
          .enum(ORIGINAL_FATES)
          .describe(
            'cancelled: a pending original is no longer redelivered; cancelled_when_attempt_ends: its running attempt ends first; kept: keepOriginal; unchanged: it was settled already',
          ),
      })
      .describe('what happens to the original'),
    targets: z
      .array(z.object({ credentialId: str, body: z.enum(['as sent', 'edited']) }))
      .describe('which credentials get what'),
    warnings: strings.describe(
      "e.g. the booking's status changed since the original was made; kept on each new notification",
    ),
    message: str,
  })
  .register(ADMIN_COMPONENTS, { id: 'ResendResult' });
/** What the retention setting dropped and kept (decisions 0127, 0211): the list's and the bulk retry's. */
const RetentionViewSchema = z.object({
  keep: int.describe('the setting --notification-retention: notifications kept (0: no limit)'),
  dropped: int.describe('older settled notifications dropped since the start or the last reset'),
  oldestKept: str.nullable().describe('createdAt of the oldest notification kept'),
  exhaustedKept: int.describe(
    'exhausted notifications kept past the setting until a resend or bulk retry takes them (decision 0211)',
  ),
});
export const ResendFailedInputSchema = z
  .strictObject({
    credentialId: str,
    since: InstantInput.describe('created at or after this emulator time'),
    dryRun: z.boolean().optional().describe('only count: nothing is sent'),
  })
  .register(ADMIN_COMPONENTS, { id: 'ResendFailedInput', side: 'input' });
export const ResendFailedResultSchema = z
  .object({
    count: int.describe('failed notifications taken: exhausted, or pending after a failed attempt'),
    ids: z.array(str).describe('the ones taken, oldest first (what a dry run would take)'),
    dryRun: z.boolean(),
    resent: z.array(NotificationRefSchema).describe('new notifications, one per exhausted one'),
    retried: z.array(str).describe('pending ones given one attempt now (retry now)'),
    skipped: z
      .array(
        z.object({
          id: str,
          reason: z.enum(BULK_SKIP_REASONS),
          by: str.nullable().describe('the resend that stands for it, else null'),
          message: str,
        }),
      )
      .describe(
        'failed ones not taken, oldest first: a resend of it is pending, in flight, acknowledged or failed too (that one is taken instead), or an attempt of it is running',
      ),
    retention: RetentionViewSchema.optional().describe(
      'present once the retention setting dropped notifications (a failed one it dropped can no longer be retried) or keeps exhausted ones for a retry (decision 0211)',
    ),
  })
  .register(ADMIN_COMPONENTS, { id: 'ResendFailedResult' });

const TriageGroupSchema = z
  .object({
    key: str.describe('<credentialId>|<cause key>: what POST /__admin/triage/retry takes'),
    credentialId: str,
    cause: z.object({
      key: str.describe('HTTP 503 {"error":"busy"}, timeout, tls_error, connect_refused, …'),
      outcome: z.enum(ATTEMPT_OUTCOMES),
      statusCode: int.nullable(),
      answer: str
        .nullable()
        .describe("the receiver's answer, whitespace collapsed, numbers and ids masked, cut to 80"),
    }),
    count: int,
    exhausted: int,
    pending: int,
    firstSeen: instant.describe('emulator time the oldest of its last attempts ended'),
    lastSeen: instant.describe('emulator time the newest of its last attempts ended'),
    sample: str.describe('the newest notification of the group'),
    ids: z.array(str).describe(`its notifications, oldest first, at most ${TRIAGE_IDS_PER_GROUP}`),
  })
  .register(ADMIN_COMPONENTS, { id: 'TriageGroup' });
export const TriageSchema = z
  .object({
    failing: int.describe('failing notifications in all'),
    groups: z
      .array(TriageGroupSchema)
      .describe(`the groups with the most first: the ${PAGE_LIMIT.toLocaleString('en-US')} largest`),
    groupCount: int.describe('the groups in all'),
  })
  .register(ADMIN_COMPONENTS, { id: 'Triage' });
export const TriageRetryInputSchema = z
  .strictObject({
    key: str.max(1000).describe("a group's key from GET /__admin/triage"),
    dryRun: z.boolean().optional().describe('only count: nothing is sent'),
  })
  .register(ADMIN_COMPONENTS, { id: 'TriageRetryInput', side: 'input' });

export const AttemptSchema = AttemptShape.register(ADMIN_COMPONENTS, { id: 'Attempt' });

/** The summary view: the notification's members (src/model/notification.ts), in the answer's order. */
export const NotificationSummarySchema = NotificationSummaryShape.register(ADMIN_COMPONENTS, {
  id: 'NotificationSummary',
});
/** The full view: the summary's members but the count and the last attempt, and what it adds. */
export const NotificationSchema = NotificationSummaryShape.omit({ attemptCount: true, lastAttempt: true })
  .extend({
    headers: z.record(str, str).describe('exactly as sent on every attempt'),
    body: NotificationBodyComponent,
    ...NotificationDetailMembers,
  })
  .register(ADMIN_COMPONENTS, { id: 'Notification' });
export const NotificationListSchema = z
  .object({
    notifications: z.array(NotificationSummarySchema),
    settled: z.boolean().optional().describe('with wait=settled: false when timeoutMs passed first'),
    retention: RetentionViewSchema.optional().describe(
      'present once older notifications were dropped by the retention setting (decision 0127), or exhausted ones are kept past it (decision 0211)',
    ),
    ...PAGE_FIELDS,
  })
  .register(ADMIN_COMPONENTS, { id: 'NotificationList' });
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
  since: InstantInput.optional().describe('created at or after this emulator time'),
  until: InstantInput.optional().describe('created before this emulator time'),
  sinceWall: InstantInput.optional().describe('first attempt at or after this wall-clock time'),
  untilWall: InstantInput.optional().describe('first attempt before this wall-clock time'),
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
  ...PAGE_QUERY,
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
/** One line of the NDJSON export (format=ndjson): a notification with its gzip body as base64. */
export const ExportLineSchema = NotificationSchema.extend({
  gzipBase64: str.describe('the body exactly as sent (gzip), base64'),
});
const wallInstant = z.string().meta({ format: 'date-time', description: 'wall-clock time' });
const TimelineBucketSchema = z
  .object({
    from: wallInstant.describe("the bucket's start; it lasts window.bucketMs"),
    attempts: int,
    successful: int.describe('attempts answered exactly 200'),
    answered: int.describe(
      'attempts that got an HTTP answer (any status): the ones meanMs and maxMs describe',
    ),
    meanMs: int.nullable().describe('mean time to the answer of the answered attempts; null when none'),
    maxMs: int.nullable().describe('longest time to the answer of the answered attempts; null when none'),
  })
  .register(ADMIN_COMPONENTS, { id: 'TimelineBucket' });
export const DeliveryStatsSchema = z
  .object({
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
    timeline: z
      .array(TimelineBucketSchema)
      .describe(
        "the same attempts by when they started, one entry per bucket of the answer's window (wall time, oldest first)",
      ),
  })
  .register(ADMIN_COMPONENTS, { id: 'DeliveryStats' });
export const DeliveryStatsListSchema = z.object({
  window: z
    .object({
      from: wallInstant.nullable().describe("the first bucket's start; null before any attempt"),
      bucketMs: int.describe('how long each bucket lasts (1 s, 2 s, 5 s … 12 h, then whole days)'),
      count: int.max(TIMELINE_BUCKETS).describe(`how many buckets (at most ${TIMELINE_BUCKETS})`),
    })
    .describe(
      "the timelines' buckets (decision 0105): wall time, from the bucket of the earliest attempt kept to the bucket of now",
    ),
  credentials: z.array(DeliveryStatsSchema),
});
export const RetryResultSchema = z
  .object({ attempt: AttemptSchema, notification: NotificationSummarySchema })
  .register(ADMIN_COMPONENTS, { id: 'RetryResult' });

export const BatchResultSchema = BatchResultShape.register(ADMIN_COMPONENTS, { id: 'BatchResult' });

export const ActivitySchema = z
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
    z.object({ kind: z.literal('notification_changed'), notification: NotificationSummarySchema }),
    z.object({
      kind: z.literal('attempt_started'),
      notification: NotificationSummarySchema.describe('in flight'),
      attempt: AttemptSchema.pick({
        number: true,
        startedAt: true,
        startedAtWall: true,
        trigger: true,
        batchAt: true,
      }).describe('what is known before the answer'),
    }),
    z.object({
      kind: z.literal('attempt'),
      notification: NotificationSummarySchema,
      attempt: AttemptSchema,
    }),
    z.object({
      kind: z.literal('notifications_dropped'),
      ids: strings.describe('the settled notifications the retention setting dropped'),
      dropped: int.describe('dropped since the start or the last reset, these included'),
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
  )
  .register(ADMIN_COMPONENTS, { id: 'Activity' });

export const OutageInputComponent = OutageInputSchema.describe(
  'either attempts (count mode) or a window (from, until or for); no until or for: until deleted',
).register(ADMIN_COMPONENTS, { id: 'OutageInput', side: 'input' });
export const OutageSchema = OutageShape.register(ADMIN_COMPONENTS, { id: 'Outage' });
