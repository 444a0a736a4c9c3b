/**
 * THE ADMIN API, DECLARED ONCE (decision 0045). Every route under `/__admin` is one entry here; the
 * OpenAPI document (`GET /__admin/openapi.json`), the handlers' types and `AdminClient` all read it.
 *
 * To add a route:
 *   1. declare it below: its key is the operation name (the OpenAPI operationId and the client's
 *      method name); give method, path, tag, summary and the zod schemas of what it takes and answers
 *      (a new named answer shape: `schema.register(ADMIN_COMPONENTS, { id: 'Name' })` in schemas.ts or delivery-schemas.ts);
 *   2. bind its handler by the same key in its group's file in src/admin (see mount.ts);
 *   3. add a client method of that name in src/client/client.ts (or give `noClient` a reason), and a
 *      row in docs/admin-api.md. test/admin-contract.test.ts fails until all three are there.
 */
import { z } from 'zod';
import { FAULT_REFUSAL } from '../../auth/faults.js';
import { userRefusal } from '../../auth/users.js';
import { BATCH_HISTORY_LIMIT } from '../../delivery/batches.js';
import { credentialRefusal } from '../../delivery/credential-schema.js';
import { OUTAGE_REFUSAL } from '../../delivery/outages.js';
import { EVENT_REFUSAL } from '../../reservations/events.js';
import { verifyRefusal } from '../../verify/options.js';
import {
  ActivitySchema,
  BatchResultSchema,
  CredentialInputComponent,
  CredentialSchema,
  DeliveryStatsListSchema,
  EventInputComponent,
  EventResultSchema,
  ExportLineSchema,
  ExportQuerySchema,
  ExportSchema,
  NotificationListSchema,
  NotificationQuerySchema,
  NotificationSchema,
  OutageInputComponent,
  OutageSchema,
  REDELIVER_REFUSAL,
  RESEND_REFUSAL,
  RedeliverInputSchema,
  ResendFailedInputSchema,
  ResendFailedResultSchema,
  ResendInputSchema,
  ResendResultSchema,
  ReservationSchema,
  ReservationSummarySchema,
  RetryResultSchema,
  TriageRetryInputSchema,
  TriageSchema,
} from './delivery-schemas.js';
import { PAGE_LIMIT, PAGE_QUERY, pageOf } from './fields.js';
import { route } from './route.js';
import {
  ADVANCE_REFUSAL,
  AdvanceInputSchema,
  AdvanceResultSchema,
  ClockStateSchema,
  EffectiveConfigSchema,
  FaultAnswerSchema,
  FaultInputSchema,
  HealthSchema,
  JournalDetailSchema,
  JournalEntrySchema,
  JournalQuerySchema,
  ResetResultSchema,
  ScenarioRunResultSchema,
  TokenQuerySchema,
  TokenSchema,
  TRUST_REFUSAL,
  TrustInputSchema,
  TrustListSchema,
  TrustResultSchema,
  UserAnswerSchema,
  UserInputSchema,
  UserReplaceInputSchema,
  VerifyInputSchema,
  VerifyProgressSchema,
  VerifyReportSchema,
} from './schemas.js';

const bookingIdParam = z.object({ bookingId: z.int().positive() });
const PageQuerySchema = z.object(PAGE_QUERY);
const listOf = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<S> });

export const ADMIN_ROUTES = {
  // health
  health: route({
    method: 'get',
    path: '/health',
    tag: 'health',
    summary:
      '{"status":"ok"} once ready, 503 "starting" before and "degraded" while the data dir cannot be written',
    responses: { 200: HealthSchema, 503: HealthSchema },
  }),
  openApi: route({
    method: 'get',
    path: '/openapi.json',
    tag: 'health',
    summary: 'this document',
    responses: { 200: z.looseObject({}).describe('OpenAPI 3.1 document') },
  }),
  notificationOpenApi: route({
    method: 'get',
    path: '/notification.openapi.json',
    tag: 'health',
    summary:
      'the notification contract as an OpenAPI 3.1 document with a webhooks section: the request a receiver gets and the 200-only answer (docs/notification.openapi.json)',
    responses: { 200: z.looseObject({}).describe('OpenAPI 3.1 document') },
  }),
  notificationAsyncApi: route({
    method: 'get',
    path: '/notification.asyncapi.json',
    tag: 'health',
    summary: 'the notification contract as an AsyncAPI 3.0 document (docs/notification.asyncapi.json)',
    responses: { 200: z.looseObject({}).describe('AsyncAPI 3.0 document') },
  }),
  config: route({
    method: 'get',
    path: '/config',
    tag: 'health',
    summary: 'effective settings (no secrets), as the start log line lists them',
    responses: { 200: EffectiveConfigSchema },
    unpaged: 'the settings the emulator started with',
  }),
  reset: route({
    method: 'post',
    path: '/reset',
    tag: 'health',
    summary:
      'forget reservations, notifications, tokens, journal and faults; keep users, credentials, settings',
    responses: { 200: ResetResultSchema },
  }),

  // delivery: credentials and trust
  listCredentials: route({
    method: 'get',
    path: '/credentials',
    tag: 'delivery',
    summary: 'list credentials',
    responses: { 200: listOf('credentials', CredentialSchema) },
    unpaged: 'configuration added through this API or the settings, not traffic',
  }),
  addCredential: route({
    method: 'post',
    path: '/credentials',
    tag: 'delivery',
    summary: 'add a credential (id generated when absent); http:// only with --allow-http',
    body: CredentialInputComponent,
    bodyError: credentialRefusal(),
    responses: { 201: CredentialSchema },
    errors: [400, 409],
  }),
  updateCredential: route({
    method: 'put',
    path: '/credentials/:id',
    tag: 'delivery',
    summary:
      'replace a credential (validated as POST; the id cannot change); notifications already made keep their URL and ApiKey',
    body: CredentialInputComponent,
    bodyError: credentialRefusal(),
    responses: { 200: CredentialSchema },
    errors: [400, 404],
  }),
  deliveryStats: route({
    method: 'get',
    path: '/delivery-stats',
    tag: 'delivery',
    summary:
      'per credential: notifications by state, attempts, success rate, last failure, the next batch when one is pending, and the attempts, successes and latency over time (at most 24 buckets of wall time)',
    responses: { 200: DeliveryStatsListSchema },
    unpaged: 'one row per credential (as listCredentials) of at most 24 buckets',
  }),
  deleteCredential: route({
    method: 'delete',
    path: '/credentials/:id',
    tag: 'delivery',
    summary:
      'delete a credential; its pending notifications are cancelled (state cancelled, cancelReason credential_deleted)',
    responses: { 204: null },
    errors: [404],
  }),
  listTrusted: route({
    method: 'get',
    path: '/trust',
    tag: 'delivery',
    summary: 'certificates trusted for https:// destinations besides the system roots',
    responses: { 200: TrustListSchema },
    unpaged: 'configuration added through this API or the settings, not traffic',
  }),
  trust: route({
    method: 'post',
    path: '/trust',
    tag: 'delivery',
    summary:
      'trust the CA certificate(s) for later deliveries; JSON {"pem"} or the PEM text itself as the body (curl --data-binary @ca.pem)',
    body: TrustInputSchema,
    bodyError: TRUST_REFUSAL,
    textBody: 'pem',
    responses: { 201: TrustResultSchema },
    errors: [400],
  }),
  untrust: route({
    method: 'delete',
    path: '/trust/:fingerprint',
    tag: 'delivery',
    summary:
      'stop trusting the certificate with this SHA-256 fingerprint (as GET /trust lists it; colons and case optional)',
    responses: { 204: null },
    errors: [404],
  }),

  // delivery: events and reservations
  emitEvent: route({
    method: 'post',
    path: '/events',
    tag: 'delivery',
    summary: 'emit Issue, Void or Exchange; answers at once, delivery runs in the background',
    body: EventInputComponent,
    bodyError: EVENT_REFUSAL,
    responses: { 202: EventResultSchema },
    errors: [400, 404, 409],
  }),
  listReservations: route({
    method: 'get',
    path: '/reservations',
    tag: 'delivery',
    summary: 'reservations and their BookingStatus, a page (newest first by default)',
    query: PageQuerySchema,
    responses: { 200: pageOf('reservations', ReservationSummarySchema) },
    errors: [400],
  }),
  getReservation: route({
    method: 'get',
    path: '/reservations/:bookingId',
    tag: 'delivery',
    summary: 'one reservation with its last body and history',
    params: bookingIdParam,
    responses: { 200: ReservationSchema },
    errors: [400, 404],
  }),
  redeliver: route({
    method: 'post',
    path: '/reservations/:bookingId/redeliver',
    tag: 'delivery',
    summary: 'manual redelivery with the chosen status (spec "Endpoints 2")',
    params: bookingIdParam,
    body: RedeliverInputSchema,
    bodyError: REDELIVER_REFUSAL,
    responses: { 202: EventResultSchema },
    errors: [400, 404],
  }),

  // delivery: notifications and redelivery
  listNotifications: route({
    method: 'get',
    path: '/notifications',
    tag: 'delivery',
    summary: 'notification summaries; wait=settled holds the answer until no matching delivery is in flight',
    query: NotificationQuerySchema,
    responses: { 200: NotificationListSchema },
    errors: [400],
  }),
  exportNotifications: route({
    method: 'get',
    path: '/notifications/export',
    tag: 'delivery',
    summary:
      'the filtered notifications as a file: HAR 1.2 (one entry per attempt, as sent, with the answers) or NDJSON (format=ndjson)',
    query: ExportQuerySchema,
    responses: { 200: ExportSchema },
    lines: ExportLineSchema,
    errors: [400],
  }),
  getNotificationBody: route({
    method: 'get',
    path: '/notifications/:id/body.gz',
    tag: 'delivery',
    summary: 'the body exactly as sent (gzip), as a file, for curl --data-binary @<filename>.gz',
    responses: { 200: null },
    errors: [404],
    media: 'application/gzip',
    noClient: 'binary gzip bytes for curl; getNotification has the body decoded',
  }),
  getNotification: route({
    method: 'get',
    path: '/notifications/:id',
    tag: 'delivery',
    summary: 'one notification with headers, body and attempts',
    responses: { 200: NotificationSchema },
    errors: [404],
  }),
  retryNotification: route({
    method: 'post',
    path: '/notifications/:id/retry',
    tag: 'delivery',
    summary:
      'retry now: one attempt of a pending notification at once, outside the batch schedule (trigger "manual"); it counts toward the 5 attempts; answers when the attempt ended',
    responses: { 200: RetryResultSchema },
    errors: [404, 409],
  }),
  resendNotification: route({
    method: 'post',
    path: '/notifications/:id/resend',
    tag: 'delivery',
    summary:
      "resend: a new notification with this one's body (as sent, or edited and validated against the contract) to its credential or the credentials named; the reservation is not touched",
    body: ResendInputSchema,
    bodyError: RESEND_REFUSAL,
    responses: { 202: ResendResultSchema },
    errors: [400, 404],
  }),
  resendFailed: route({
    method: 'post',
    path: '/notifications/resend-failed',
    tag: 'delivery',
    summary:
      'bulk retry: every failed notification of a credential created since T (exhausted ones resent as new notifications, pending ones retried now); dryRun only counts',
    body: ResendFailedInputSchema,
    bodyError: RESEND_REFUSAL,
    responses: { 200: ResendFailedResultSchema },
    errors: [400],
  }),
  getTriage: route({
    method: 'get',
    path: '/triage',
    tag: 'delivery',
    summary:
      'failures grouped by cause: failing notifications (exhausted, or pending after a failed attempt, not covered by a resend) by credential and the cause of their last attempt, with counts, first and last seen and a sample',
    responses: { 200: TriageSchema },
    unpaged: `the ${PAGE_LIMIT} largest groups and groupCount: a ranking that moves as attempts end has no stable cursor`,
  }),
  retryTriageGroup: route({
    method: 'post',
    path: '/triage/retry',
    tag: 'delivery',
    summary:
      "retry a group: its exhausted notifications resent, its pending ones retried now, each once (a bulk retry of the group's members); dryRun only counts",
    body: TriageRetryInputSchema,
    bodyError: RESEND_REFUSAL,
    responses: { 200: ResendFailedResultSchema },
    errors: [400, 404],
  }),
  runRedelivery: route({
    method: 'post',
    path: '/redelivery/run',
    tag: 'delivery',
    summary:
      'run a redelivery batch now, at the current emulator time; notAttempted says why pending notifications were left out',
    responses: { 200: BatchResultSchema },
  }),
  listBatches: route({
    method: 'get',
    path: '/redelivery/batches',
    tag: 'delivery',
    summary: 'batches run so far, and batch instants skipped with their reason',
    responses: { 200: listOf('batches', BatchResultSchema) },
    unpaged: `the last ${BATCH_HISTORY_LIMIT} batches`,
  }),

  // delivery: simulated outages
  listOutages: route({
    method: 'get',
    path: '/outages',
    tag: 'delivery',
    summary: 'simulated outages of the receiver, with their status and the attempts they failed',
    responses: { 200: listOf('outages', OutageSchema) },
    unpaged: 'configuration added through this API or the settings, not traffic',
  }),
  addOutage: route({
    method: 'post',
    path: '/outages',
    tag: 'delivery',
    summary:
      'fail the next N attempts, or every attempt in a window of emulator time, as simulated_outage (the receiver is never contacted)',
    body: OutageInputComponent,
    bodyError: OUTAGE_REFUSAL,
    responses: { 201: OutageSchema },
    errors: [400],
  }),
  clearOutages: route({
    method: 'delete',
    path: '/outages',
    tag: 'delivery',
    summary: 'remove every outage',
    responses: { 204: null },
  }),
  getOutage: route({
    method: 'get',
    path: '/outages/:id',
    tag: 'delivery',
    summary: 'one outage',
    responses: { 200: OutageSchema },
    errors: [404],
  }),
  deleteOutage: route({
    method: 'delete',
    path: '/outages/:id',
    tag: 'delivery',
    summary: 'remove one outage',
    responses: { 204: null },
    errors: [404],
  }),

  // clock
  getClock: route({
    method: 'get',
    path: '/clock',
    tag: 'clock',
    summary: 'clock mode, emulator now, next batch',
    responses: { 200: ClockStateSchema },
  }),
  advanceClock: route({
    method: 'post',
    path: '/clock/advance',
    tag: 'clock',
    summary: 'move a manual clock; every crossed minute-55 batch finishes first',
    body: AdvanceInputSchema,
    bodyError: ADVANCE_REFUSAL,
    responses: { 200: AdvanceResultSchema },
    errors: [400, 409],
  }),

  // getaccesstoken
  listUsers: route({
    method: 'get',
    path: '/users',
    tag: 'getaccesstoken',
    summary: 'list GetAccessToken users (without passwords), a page',
    query: PageQuerySchema,
    responses: { 200: pageOf('users', UserAnswerSchema) },
    errors: [400],
  }),
  addUser: route({
    method: 'post',
    path: '/users',
    tag: 'getaccesstoken',
    summary: 'add a user; the answer never carries the password',
    body: UserInputSchema,
    bodyError: userRefusal(),
    responses: { 201: UserAnswerSchema },
    errors: [400, 409],
  }),
  updateUser: route({
    method: 'put',
    path: '/users/:username',
    tag: 'getaccesstoken',
    summary: 'replace a user (validated as POST; the username cannot change); issued tokens stay valid',
    body: UserReplaceInputSchema,
    bodyError: userRefusal(),
    responses: { 200: UserAnswerSchema },
    errors: [400, 404],
  }),
  deleteUser: route({
    method: 'delete',
    path: '/users/:username',
    tag: 'getaccesstoken',
    summary: 'delete a user',
    responses: { 204: null },
    errors: [404],
  }),
  listTokens: route({
    method: 'get',
    path: '/tokens',
    tag: 'getaccesstoken',
    summary: 'issued tokens with expiry (8 h of emulator time), a page',
    query: TokenQuerySchema,
    responses: { 200: pageOf('tokens', TokenSchema) },
    errors: [400],
  }),
  revokeToken: route({
    method: 'delete',
    path: '/tokens/:token',
    tag: 'getaccesstoken',
    summary: 'revoke a token',
    responses: { 204: null },
    errors: [404],
  }),
  listRequests: route({
    method: 'get',
    path: '/requests',
    tag: 'getaccesstoken',
    summary: 'journal of GetAccessToken calls, a page, oldest first',
    query: JournalQuerySchema,
    responses: { 200: pageOf('requests', JournalEntrySchema) },
    errors: [400],
  }),
  getRequest: route({
    method: 'get',
    path: '/requests/:id',
    tag: 'getaccesstoken',
    summary:
      'one journaled call with exchange: its request and response as sent and received (bodies up to 4 KiB)',
    responses: { 200: JournalDetailSchema },
    errors: [404],
  }),
  listFaults: route({
    method: 'get',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'active GetAccessToken faults',
    responses: { 200: listOf('faults', FaultAnswerSchema) },
    unpaged: 'configuration added through this API or the settings, not traffic',
  }),
  addFault: route({
    method: 'post',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'make the next N (or a fraction of) calls late, 5xx, malformed or dropped',
    body: FaultInputSchema,
    bodyError: FAULT_REFUSAL,
    responses: { 201: FaultAnswerSchema },
    errors: [400],
  }),
  clearFaults: route({
    method: 'delete',
    path: '/faults',
    tag: 'getaccesstoken',
    summary: 'remove every fault',
    responses: { 204: null },
  }),
  deleteFault: route({
    method: 'delete',
    path: '/faults/:id',
    tag: 'getaccesstoken',
    summary: 'remove one fault',
    responses: { 204: null },
    errors: [404],
  }),

  // scenarios and verify
  runScenario: route({
    method: 'post',
    path: '/scenarios/run',
    tag: 'scenarios',
    summary:
      'run the steps of the scenario loaded with serve --scenario; 404 when none is loaded, 409 while it runs',
    responses: { 200: ScenarioRunResultSchema },
    errors: [404, 409],
  }),
  verify: route({
    method: 'post',
    path: '/verify',
    tag: 'verify',
    summary:
      'run the receiver conformance kit (reportbo-emulator verify) against a receiver, trusting the CAs this emulator trusts; answers the report verify --json writes (docs/verify.md), or with Accept: application/x-ndjson a stream of caseStart/caseEnd events ending with the report (docs/admin-api.md)',
    body: VerifyInputSchema,
    bodyError: verifyRefusal(),
    responses: { 200: VerifyReportSchema },
    lines: VerifyProgressSchema,
    errors: [400],
  }),

  // live
  stream: route({
    method: 'get',
    path: '/stream',
    tag: 'live',
    summary:
      'Server-Sent Events: hello (the clock), then one event per activity named by its kind: event, notification_created, notification_changed, attempt_started, attempt, notifications_dropped, batch, clock, token, admin, refused; a client more than 256 KiB behind is dropped (reconnect: hello again, read the lists)',
    responses: { 200: ActivitySchema },
    media: 'text/event-stream',
    noClient: 'an endless Server-Sent Events stream: read it with an EventSource',
  }),
  ui: route({
    method: 'get',
    path: '/ui',
    tag: 'live',
    summary: 'the live dashboard (HTML; / and /__admin redirect here)',
    responses: { 200: null },
    media: 'text/html',
    noClient: 'a page for browsers',
  }),
  uiFile: route({
    method: 'get',
    path: '/ui/:file',
    tag: 'live',
    summary: "the dashboard's script modules and style (dashboard.js, dashboard.css, …)",
    responses: { 200: null },
    errors: [404],
    media: ['text/javascript', 'text/css'],
    noClient: "a file of the dashboard's page",
  }),
} as const;

export type AdminRoutes = typeof ADMIN_ROUTES;
/** An operation name: the key of a route in ADMIN_ROUTES. */
export type OperationName = keyof AdminRoutes;
