/**
 * Request and answer schemas of the admin API besides delivery (delivery-schemas.ts): health,
 * settings, trust, GetAccessToken users, tokens, journal and faults, the clock, scenarios and verify.
 * Each named one is a component of the OpenAPI document; the emulator's views are typed from them
 * (`z.output<typeof …>`), so what the services return and what the document says are one thing.
 */
import { z } from 'zod';
import { FaultSchema } from '../../auth/faults.js';
import { VARIANTS } from '../../auth/types.js';
import { UserReplaceSchema, UserSchema, UserViewSchema } from '../../auth/users.js';
import { JournalEntryShape, TokenShape } from '../../model/auth.js';
import { AdvanceResultShape, ClockStateShape } from '../../model/clock.js';
import type { Refusal } from '../../model/refusal.js';
import { TrustedCertificateShape } from '../../model/trust.js';
import { VerifyOptionsSchema } from '../../verify/options.js';
import { CaseTraceSchema } from '../../verify/trace-shape.js';
import { CASE_IDS } from '../../verify/types.js';
import { ADMIN_COMPONENTS, API_VERSION, CLOCK_MODE, int, PAGE_QUERY, str } from './fields.js';

// Every error answer (`errors`, `default` of each operation in the document): named, never returned by a handler.
z.object({
  error: z.object({
    code: str.describe('stable machine-readable code'),
    category: z.enum(['user_input', 'conflict', 'not_found', 'delivery', 'internal']),
    message: str.describe('what failed, why, and how to fix it'),
    details: z.looseObject({}).optional().describe('e.g. path (field), accepted (values)'),
  }),
}).register(ADMIN_COMPONENTS, { id: 'Problem' });

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'starting', 'degraded']),
    degraded: str
      .optional()
      .describe(
        'with status degraded (HTTP 503): why, e.g. `data dir not writable: ENOSPC: no space left on device …`',
      ),
    version: str.describe('the package version (package.json)'),
    clock: CLOCK_MODE.optional(),
    seed: int.optional(),
  })
  .register(ADMIN_COMPONENTS, { id: 'Health' });

export const EffectiveConfigSchema = z
  .object({
    responseTimeoutMs: int.describe('real milliseconds, on every clock'),
    allowHttp: z.boolean(),
    clock: z.object({
      mode: CLOCK_MODE,
      hourMs: int.nullable().describe('real ms per emulator hour; null unless compressed'),
    }),
    deliveryConcurrency: int,
    apiVersions: z.object({ '1.6': str, '1.7': str }),
    basePaths: z.object({ '1.6': str, '1.7': str }),
    caFile: str.nullable().describe('path of the CA file given at start'),
    trustedCaCount: int.describe('certificates trusted besides the system roots'),
    acceptLowercaseKeys: z.boolean(),
    exchangeNotifies: z.enum(['new', 'old', 'both']),
    seed: int,
    logLevel: z.enum(['silent', 'error', 'warn', 'info', 'debug']),
    journalEntries: int.describe(
      'most GetAccessToken calls the journal keeps (the newest 500 with request and answer); 0: the journal is off',
    ),
    logLinesPerSecond: int.describe(
      'most GetAccessToken and most attempt lines a second each before a summary line; 0: every line',
    ),
    notificationRetention: int.describe(
      'notifications kept; past it the oldest settled ones are dropped (0: no limit)',
    ),
    retentionDropsExhausted: z
      .boolean()
      .describe('whether retention may drop exhausted notifications no resend or bulk retry took yet'),
    shutdownGraceMs: int.describe('real milliseconds attempts in flight may finish at a stop'),
    allowedHosts: z.array(str).describe('host names the admin API answers to besides the built-in ones'),
    adminToken: z.boolean().describe('whether a token is required (never its value)'),
    dataDir: str
      .nullable()
      .describe('where state is kept across restarts (--data-dir); null: in memory only'),
  })
  .register(ADMIN_COMPONENTS, { id: 'EffectiveConfig' });

export const ResetResultSchema = z.object({ status: z.literal('reset') });

export const TrustInputSchema = z
  .object({ pem: str.describe('one or more PEM certificates') })
  .register(ADMIN_COMPONENTS, { id: 'TrustInput', side: 'input' });
/** A trust request that is JSON without a `pem` text. */
export const TRUST_REFUSAL: Refusal = {
  code: 'invalid_trust_request',
  words: () => ({ message: 'Expected {"pem": "-----BEGIN CERTIFICATE-----…"}.', details: { path: 'pem' } }),
};
export const TrustedCertificateSchema = TrustedCertificateShape.register(ADMIN_COMPONENTS, {
  id: 'TrustedCertificate',
});
export const TrustListSchema = z
  .object({ certificates: z.array(TrustedCertificateSchema) })
  .register(ADMIN_COMPONENTS, { id: 'TrustList' });
export const TrustResultSchema = z
  .object({
    added: z.array(TrustedCertificateSchema).describe('the certificates that were new'),
    certificates: z.array(TrustedCertificateSchema),
  })
  .register(ADMIN_COMPONENTS, { id: 'TrustResult' });

export const UserInputSchema = UserSchema.register(ADMIN_COMPONENTS, { id: 'UserInput', side: 'input' });
export const UserReplaceInputSchema = UserReplaceSchema.describe(
  'a user; username may be left out (it is the one in the path, and cannot change)',
).register(ADMIN_COMPONENTS, { id: 'UserReplaceInput', side: 'input' });
export const UserAnswerSchema = UserViewSchema.register(ADMIN_COMPONENTS, { id: 'User' });

export const TokenSchema = TokenShape.register(ADMIN_COMPONENTS, { id: 'Token' });
export const TokenQuerySchema = z.object({
  username: str.optional().describe('only this user'),
  ...PAGE_QUERY,
});

export const JournalEntrySchema = JournalEntryShape.register(ADMIN_COMPONENTS, { id: 'JournalEntry' });
const headerPairs = z.array(z.tuple([str, str]));
export const JournalDetailSchema = JournalEntrySchema.extend({
  exchange: z
    .object({
      request: z.object({
        method: str,
        target: str.describe('path and query as sent'),
        headers: headerPairs,
        body: str.describe('up to 4 KiB, decompressed when sent with Content-Encoding gzip or deflate'),
        bodyBytes: int,
        truncated: z.boolean(),
      }),
      response: z.object({ status: int, headers: headerPairs, body: str, truncated: z.boolean() }),
    })
    .nullable()
    .describe('the call as the client sent it and got it back; null when it did not come over HTTP'),
}).register(ADMIN_COMPONENTS, { id: 'JournalDetail' });
export const JournalQuerySchema = z.object({
  version: API_VERSION.optional().describe('only this API version'),
  variant: z.enum(VARIANTS).optional().describe('only this variant'),
  username: str.optional().describe('only this user'),
  outcome: str.optional().describe('only this outcome, e.g. ok'),
  ...PAGE_QUERY,
});

export const FaultInputSchema = FaultSchema.register(ADMIN_COMPONENTS, { id: 'FaultInput', side: 'input' });
export const FaultAnswerSchema = z
  .object({
    ...FaultSchema.shape,
    id: str,
    remaining: int.nullable().describe('calls still to be affected (count mode), or null (fraction mode)'),
    matched: int.describe('calls this rule affected so far'),
  })
  .register(ADMIN_COMPONENTS, { id: 'Fault' });

export const ClockStateSchema = ClockStateShape.register(ADMIN_COMPONENTS, { id: 'ClockState' });
export const AdvanceInputSchema = z
  .union([
    z.strictObject({
      by: z.union([z.string().meta({ examples: ['PT1H', '30m'] }), z.number().describe('ms')]),
    }),
    z.strictObject({ to: z.string().meta({ examples: ['2026-04-27T11:00:00Z', 'next-batch'] }) }),
  ])
  .register(ADMIN_COMPONENTS, { id: 'AdvanceInput', side: 'input' });
/** Any advance its schema refuses: the three forms it takes. */
export const ADVANCE_REFUSAL: Refusal = {
  code: 'invalid_advance',
  words: () => ({
    message: 'Give exactly one of {"by": "PT1H"}, {"to": "2026-04-27T11:00:00Z"} or {"to": "next-batch"}.',
    details: { accepted: ['by', 'to'] },
  }),
};
export const AdvanceResultSchema = AdvanceResultShape.register(ADMIN_COMPONENTS, { id: 'AdvanceResult' });

/** An object whose members the scenario runner owns (typed there, not here). */
const anObject = (description: string) =>
  z.custom<object>((v) => typeof v === 'object').meta({ type: 'object', description });

export const ScenarioRunResultSchema = z
  .object({
    status: str.describe('passed, failed or error'),
    summary: anObject('counts of scenarios and expectations'),
    result: anObject('every step and expectation, as run --json writes them'),
  })
  .register(ADMIN_COMPONENTS, { id: 'ScenarioRunResult' });

export const VerifyInputSchema = VerifyOptionsSchema.register(ADMIN_COMPONENTS, {
  id: 'VerifyInput',
  side: 'input',
});
const VerifyCaseSchema = z
  .object({
    id: z.enum(CASE_IDS),
    title: str,
    status: z.enum(['passed', 'failed', 'warned', 'skipped']),
    reason: str,
    evidence: z.array(z.object({ sent: str, received: str })),
    rule: str,
    fix: str,
    durationMs: int,
    timing: z
      .object({
        answers: int,
        p50Ms: int,
        p95Ms: int,
        maxMs: int,
        burst: z.object({ answers: int, p50Ms: int, p95Ms: int, maxMs: int }).optional(),
        kitLagMs: int.optional(),
      })
      .optional(),
    trace: CaseTraceSchema.optional().describe(
      'what the case sent (BookingID, UpdateDate, status, the gzip body as base64), the answers and the probe readings; verify --replay sends it again',
    ),
  })
  .register(ADMIN_COMPONENTS, { id: 'VerifyCase' });
export const VerifyReportSchema = z
  .object({
    receiver: str,
    passed: int,
    failed: int,
    warned: int,
    skipped: int,
    cases: z.array(VerifyCaseSchema),
    causes: z.array(z.object({ cause: str, summary: str, fixFirst: str, cases: z.array(z.enum(CASE_IDS)) })),
    seed: int,
    probe: str.optional(),
    probeDeadlineMs: int,
    responseTimeoutMs: int,
    durationMs: int,
  })
  .register(ADMIN_COMPONENTS, { id: 'VerifyReport' });
/** One line of POST /verify's progress stream (`Accept: application/x-ndjson`, decision 0074). */
export const VerifyProgressSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('caseStart'), id: z.enum(CASE_IDS), title: str, index: int, total: int }),
  z.object({ type: z.literal('caseEnd'), result: VerifyCaseSchema, index: int, total: int }),
  z.object({ type: z.literal('report'), report: VerifyReportSchema }),
  z.object({ type: z.literal('error'), error: z.object({ code: str, message: str }) }),
]);
