/**
 * GetAccessToken's shapes (zod): a user, a fault rule, a token and a journal entry, for src/auth, the
 * admin contract and the data dir's records alike.
 */
import { z } from 'zod';
import { API_VERSIONS, AUTH_OUTCOMES, VARIANTS } from './constants.js';
import { instant, int, str } from './fields.js';

export const TokenShape = z.object({
  token: str,
  username: str,
  version: z.enum(API_VERSIONS),
  issuedAt: instant,
  expiresAt: instant,
  expired: z.boolean().describe('judged on the emulator clock'),
  revoked: z.boolean(),
});

export const JournalEntryShape = z.object({
  id: str,
  at: instant,
  version: z.enum(API_VERSIONS),
  variant: z.enum(VARIANTS),
  path: str,
  username: str.nullable(),
  outcome: z.enum(AUTH_OUTCOMES),
  transactionCode: str.nullable(),
  httpStatus: int,
  warnings: z.array(str),
  fault: z.object({ id: str, kind: str }).optional(),
});

/** No control characters: `webDescription` travels in the X-API-User-WebDescription header. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const noControlChars = (s: string) => !/[\u0000-\u001f\u007f]/.test(s);

/**
 * An API user (product rule "Core concepts"); the admin API, config files and scenarios all use this shape.
 */
export const UserSchema = z.strictObject({
  username: z.string().min(1).max(256).refine(noControlChars, 'must not contain control characters'),
  password: z.string().max(256),
  idWeb: z.number().int().min(0).max(2_147_483_647),
  webDescription: z.string().max(256).refine(noControlChars, 'must not contain control characters'),
  versions: z
    .array(z.enum(API_VERSIONS))
    .min(1)
    .default([...API_VERSIONS]),
});

/** Longest injectable delay: long enough for any SDK timeout test, short enough to end. */
export const MAX_FAULT_DELAY_MS = 5 * 60 * 1000;
export const FAULT_KINDS = ['delay', 'status', 'malformed', 'drop'] as const;
export const FAULT_STATUSES = [500, 502, 503, 504] as const;

/** `POST /__admin/faults` body: which calls (version, variant, next `count` or a `fraction`) and what happens. */
export const FaultSchema = z
  .strictObject({
    version: z.enum(API_VERSIONS).optional(),
    /** `soap` matches both SOAP 1.1 and 1.2. */
    variant: z.enum([...VARIANTS, 'soap']).optional(),
    kind: z.enum(FAULT_KINDS),
    delayMs: z.number().int().min(1).max(MAX_FAULT_DELAY_MS).optional(),
    status: z
      .number()
      .int()
      .refine(
        (s) => (FAULT_STATUSES as readonly number[]).includes(s),
        `expected one of ${FAULT_STATUSES.join(', ')}`,
      )
      .optional(),
    count: z.number().int().min(1).max(1_000_000).optional(),
    fraction: z.number().gt(0).max(1).optional(),
  })
  .superRefine((f, ctx) => {
    if (f.kind === 'delay' && f.delayMs === undefined)
      ctx.addIssue({ code: 'custom', path: ['delayMs'], message: 'required for kind "delay"' });
    if (f.kind === 'status' && f.status === undefined)
      ctx.addIssue({ code: 'custom', path: ['status'], message: 'required for kind "status"' });
    if (f.count !== undefined && f.fraction !== undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['fraction'],
        message: 'give either count or fraction, not both',
      });
  });
