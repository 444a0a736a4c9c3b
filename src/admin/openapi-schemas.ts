/**
 * Component schemas of the admin API's OpenAPI document. Request bodies come from the zod schemas
 * the routes validate with (one schema per boundary); answers, which have no zod schema, are
 * written here after docs/admin-api.md.
 */
import { z } from 'zod';
import { ADMIN_CHANGES } from '../activity/types.js';
import { FaultSchema } from '../auth/faults.js';
import { VARIANTS } from '../auth/types.js';
import { UserSchema, UserViewSchema } from '../auth/users.js';
import { BOOKING_STATUSES, EVENT_TYPES, NotificationBodySchema } from '../contract/index.js';
import { CredentialInputSchema } from '../delivery/credential-schema.js';
import { ATTEMPT_TRIGGERS, CANCEL_REASONS, NOTIFICATION_STATES } from '../delivery/notification.js';
import { OutageInputSchema } from '../delivery/outages.js';
import { NOT_ATTEMPTED_LIST_LIMIT, NOT_ATTEMPTED_REASONS } from '../delivery/outbox.js';
import { ATTEMPT_OUTCOMES } from '../delivery/outcome.js';
import { EventInputSchema } from '../reservations/events.js';
import { VerifyOptionsSchema } from '../verify/options.js';
import { CASE_IDS } from '../verify/types.js';

type Json = Record<string, unknown>;

/** JSON Schema of a zod schema as its input is accepted, without the `$schema` key (OpenAPI 3.1 sets the dialect). */
function fromZod(schema: z.ZodType, io: 'input' | 'output' = 'input'): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io,
    unrepresentable: 'any',
  }) as Json;
  return rest;
}

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const str: Json = { type: 'string' };
const int: Json = { type: 'integer' };
const instant: Json = { type: 'string', format: 'date-time', description: 'emulator time (ISO 8601, UTC)' };
const nullable = (s: Json): Json => ({ oneOf: [s, { type: 'null' }] });
const obj = (properties: Json, required: string[] = Object.keys(properties)): Json => ({
  type: 'object',
  properties,
  required,
});
const STATES = [...NOTIFICATION_STATES];
const OUTCOMES = [...ATTEMPT_OUTCOMES];

/** Every component schema, by name. */
export function componentSchemas(): Record<string, Json> {
  const notificationRef = {
    id: str,
    credentialId: str,
    bookingId: int,
    state: { enum: STATES },
  };
  const summaryProps = {
    ...notificationRef,
    bookingNumber: str,
    bookingStatus: { enum: [...BOOKING_STATUSES] },
    url: str,
    createdAt: instant,
    deliveredAt: nullable(instant),
    exhaustedAt: nullable(instant),
    cancelledAt: nullable(instant),
    cancelReason: {
      oneOf: [{ enum: [...CANCEL_REASONS] }, { type: 'null' }],
      description:
        'why a cancelled notification is no longer redelivered: credential_deleted (its credential was deleted)',
    },
    filename: {
      type: 'string',
      description: 'Content-Disposition filename, <yyyyMMdd_HHmmssZ>-<BookingNumber>.json',
    },
    warnings: { type: 'array', items: str },
  };
  const reservationSummary = {
    bookingId: int,
    bookingNumber: str,
    status: { enum: [...BOOKING_STATUSES] },
    updatedAt: instant,
    exchangedTo: int,
    exchangedFrom: int,
  };
  return {
    Problem: obj({
      error: obj(
        {
          code: { type: 'string', description: 'stable machine-readable code' },
          category: { enum: ['user_input', 'conflict', 'not_found', 'delivery', 'internal'] },
          message: { type: 'string', description: 'what failed, why, and how to fix it' },
          details: { type: 'object', description: 'e.g. path (field), accepted (values)' },
        },
        ['code', 'category', 'message'],
      ),
    }),
    Health: obj(
      { status: { enum: ['ok', 'starting'] }, clock: { enum: ['real', 'compressed', 'manual'] }, seed: int },
      ['status'],
    ),
    EffectiveConfig: obj({
      responseTimeoutMs: { type: 'integer', description: 'real milliseconds, on every clock' },
      allowHttp: { type: 'boolean' },
      clock: obj({
        mode: { enum: ['real', 'compressed', 'manual'] },
        hourMs: { ...nullable(int), description: 'real ms per emulator hour; null unless compressed' },
      }),
      deliveryConcurrency: int,
      apiVersions: obj({ '1.6': str, '1.7': str }),
      basePaths: obj({ '1.6': str, '1.7': str }),
      caFile: { ...nullable(str), description: 'path of the CA file given at start' },
      trustedCaCount: { type: 'integer', description: 'certificates trusted besides the system roots' },
      acceptLowercaseKeys: { type: 'boolean' },
      exchangeNotifies: { enum: ['new', 'old', 'both'] },
      seed: int,
      logLevel: { enum: ['silent', 'error', 'warn', 'info', 'debug'] },
    }),
    CredentialInput: fromZod(CredentialInputSchema),
    Credential: obj({
      id: str,
      apiKey: str,
      url: str,
      filters: obj({ pcc: { type: 'array', items: str }, idWeb: { type: 'array', items: int } }, []),
      warnings: { type: 'array', items: str },
    }),
    TrustInput: obj({ pem: { type: 'string', description: 'one or more PEM certificates' } }),
    TrustedCertificate: obj({
      subject: str,
      issuer: str,
      fingerprint256: str,
      validFrom: instant,
      validTo: instant,
      ca: { type: 'boolean' },
      source: { enum: ['ca-file', 'admin', 'scenario'] },
    }),
    TrustList: obj({ certificates: { type: 'array', items: ref('TrustedCertificate') } }),
    TrustResult: obj({
      added: {
        type: 'array',
        items: ref('TrustedCertificate'),
        description: 'the certificates that were new',
      },
      certificates: { type: 'array', items: ref('TrustedCertificate') },
    }),
    UserInput: fromZod(UserSchema),
    User: fromZod(UserViewSchema, 'output'),
    Token: obj({
      token: str,
      username: str,
      version: { enum: ['1.6', '1.7'] },
      issuedAt: instant,
      expiresAt: instant,
      expired: { type: 'boolean' },
      revoked: { type: 'boolean' },
    }),
    JournalEntry: obj(
      {
        id: str,
        at: instant,
        version: { enum: ['1.6', '1.7'] },
        variant: { enum: [...VARIANTS] },
        path: str,
        username: nullable(str),
        outcome: str,
        transactionCode: nullable(str),
        warnings: { type: 'array', items: str },
      },
      ['at', 'version', 'variant', 'path', 'outcome', 'warnings'],
    ),
    FaultInput: fromZod(FaultSchema),
    Fault: {
      allOf: [
        fromZod(FaultSchema, 'output'),
        obj({ id: str, remaining: nullable(int), matched: int }, ['id', 'remaining', 'matched']),
      ],
    },
    OutageInput: {
      ...fromZod(OutageInputSchema),
      description:
        'either attempts (count mode) or a window (from, until or for); no until or for: until deleted',
    },
    Outage: obj(
      {
        id: str,
        credentialId: nullable(str),
        attempts: nullable(int),
        remaining: nullable(int),
        from: nullable(instant),
        until: nullable(instant),
        note: nullable(str),
        createdAt: instant,
        failedAttempts: int,
        status: { enum: ['scheduled', 'active', 'ended'] },
      },
      [
        'id',
        'credentialId',
        'attempts',
        'remaining',
        'from',
        'until',
        'note',
        'createdAt',
        'failedAttempts',
        'status',
      ],
    ),
    EventInput: { ...fromZod(EventInputSchema), description: 'bookingId is required for Void and Exchange' },
    EventResult: obj({
      event: { type: 'string', description: `${EVENT_TYPES.join(', ')} or Redelivery` },
      at: instant,
      reservations: { type: 'array', items: obj({ bookingId: int, bookingNumber: str, status: str }) },
      notifications: { type: 'array', items: obj(notificationRef) },
      routedTo: { type: 'integer', description: 'number of credentials the event matched' },
      message: { type: 'string', description: 'e.g. "routed to 0 credentials"' },
      warnings: { type: 'array', items: str },
    }),
    ReservationSummary: obj(reservationSummary, ['bookingId', 'bookingNumber', 'status']),
    Reservation: obj(
      {
        ...reservationSummary,
        body: ref('NotificationBody'),
        history: { type: 'array', items: { type: 'object' } },
      },
      ['bookingId', 'bookingNumber', 'status', 'body'],
    ),
    RedeliverInput: obj({ status: { enum: [...BOOKING_STATUSES] } }),
    Attempt: obj(
      {
        number: int,
        startedAt: instant,
        startedAtWall: { type: 'string', format: 'date-time', description: 'wall-clock time' },
        finishedAt: instant,
        durationMs: int,
        trigger: {
          enum: [...ATTEMPT_TRIGGERS],
          description: 'first: the event; batch: a redelivery batch (see batchAt); manual: retry now',
        },
        batchAt: { ...instant, description: 'the batch instant, for batch attempts' },
        outcome: { enum: OUTCOMES },
        statusCode: nullable(int),
        message: str,
        responseBody: { type: 'string', description: 'first 4 KiB of the answer' },
      },
      ['number', 'startedAt', 'durationMs', 'trigger', 'outcome', 'message'],
    ),
    NotificationSummary: obj({
      ...summaryProps,
      attemptCount: int,
      inFlight: { type: 'boolean', description: 'an attempt is queued or running' },
      lastAttempt: nullable(ref('Attempt')),
    }),
    RetryResult: obj({ attempt: ref('Attempt'), notification: ref('NotificationSummary') }),
    Activity: {
      description:
        'the data of one live-stream event (GET /stream); the SSE event name is its kind. Times are emulator time.',
      oneOf: [
        obj({
          kind: { const: 'event' },
          event: { type: 'string', description: 'Issue, Void, Exchange or Redeliver' },
          at: instant,
          reservations: { type: 'array', items: obj({ bookingId: int, bookingNumber: str, status: str }) },
          notifications: { type: 'array', items: str },
          routedTo: int,
        }),
        obj({ kind: { const: 'notification_created' }, notification: ref('NotificationSummary') }),
        obj({
          kind: { const: 'attempt' },
          notification: ref('NotificationSummary'),
          attempt: ref('Attempt'),
        }),
        obj({ kind: { const: 'batch' }, batch: ref('BatchResult') }),
        obj({
          kind: { const: 'clock' },
          from: instant,
          to: instant,
          batches: { type: 'array', items: instant },
        }),
        obj({ kind: { const: 'token' }, entry: ref('JournalEntry') }),
        obj(
          {
            kind: { const: 'admin' },
            change: { enum: [...ADMIN_CHANGES] },
            subject: str,
            detail: str,
          },
          ['kind', 'change', 'subject'],
        ),
      ],
    },
    Notification: obj({
      ...summaryProps,
      headers: { type: 'object', additionalProperties: str, description: 'exactly as sent on every attempt' },
      body: ref('NotificationBody'),
      attempts: { type: 'array', items: ref('Attempt') },
    }),
    NotificationList: obj(
      {
        notifications: { type: 'array', items: ref('NotificationSummary') },
        settled: { type: 'boolean', description: 'with wait=settled: false when timeoutMs passed first' },
      },
      ['notifications'],
    ),
    NotificationBody: {
      ...fromZod(NotificationBodySchema, 'output'),
      description: 'the decompressed notification body (spec "Resources"); docs/notification.schema.json',
    },
    BatchResult: obj(
      {
        at: instant,
        attempted: int,
        delivered: int,
        failed: int,
        exhausted: int,
        skipped: { type: 'boolean', description: 'the instant passed without a batch (see reason)' },
        reason: {
          type: 'string',
          description: 'why the batch was skipped, e.g. previous batch still running',
        },
        notAttempted: obj({
          count: int,
          byReason: {
            type: 'object',
            propertyNames: { enum: [...NOT_ATTEMPTED_REASONS] },
            additionalProperties: int,
          },
          notifications: {
            type: 'array',
            description: `the first ${NOT_ATTEMPTED_LIST_LIMIT} pending notifications left out, each with why`,
            items: obj({ id: str, reason: { enum: [...NOT_ATTEMPTED_REASONS] }, message: str }),
          },
        }),
      },
      ['at', 'attempted', 'delivered', 'failed', 'exhausted'],
    ),
    ClockState: obj(
      { mode: { enum: ['real', 'compressed', 'manual'] }, now: instant, nextBatchAt: instant, hourMs: int },
      ['mode', 'now', 'nextBatchAt'],
    ),
    AdvanceInput: {
      oneOf: [
        obj({
          by: {
            oneOf: [
              { type: 'string', examples: ['PT1H', '30m'] },
              { type: 'integer', description: 'ms' },
            ],
          },
        }),
        obj({ to: { type: 'string', examples: ['2026-04-27T11:00:00Z', 'next-batch'] } }),
      ],
    },
    ScenarioRunResult: obj(
      {
        status: { type: 'string', description: 'passed, failed or error' },
        summary: { type: 'object', description: 'counts of scenarios and expectations' },
        result: { type: 'object', description: 'every step and expectation, as run --json writes them' },
      },
      ['status', 'summary', 'result'],
    ),
    AdvanceResult: obj({ from: instant, to: instant, batches: { type: 'array', items: ref('BatchResult') } }),
    VerifyInput: fromZod(VerifyOptionsSchema),
    VerifyCase: obj(
      {
        id: { enum: [...CASE_IDS] },
        title: str,
        status: { enum: ['passed', 'failed', 'warned', 'skipped'] },
        reason: str,
        evidence: { type: 'array', items: obj({ sent: str, received: str }) },
        rule: str,
        fix: str,
        durationMs: int,
        timing: obj({ answers: int, p50Ms: int, p95Ms: int, maxMs: int }),
      },
      ['id', 'title', 'status', 'reason', 'evidence', 'rule', 'fix', 'durationMs'],
    ),
    VerifyReport: obj({
      receiver: str,
      passed: int,
      failed: int,
      warned: int,
      skipped: int,
      cases: { type: 'array', items: ref('VerifyCase') },
      seed: int,
      responseTimeoutMs: int,
      durationMs: int,
    }),
  };
}
