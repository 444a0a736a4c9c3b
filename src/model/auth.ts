/** GetAccessToken's shapes (zod): a token and a journal entry, for src/auth and the admin contract alike. */
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
