/** What `verify-client` accepts (CLI flags, `verifyClient` options), checked once here. */
import { z } from 'zod';
import { API_VERSIONS, type ApiVersion, VARIANTS, type Variant } from '../auth/types.js';
import { parseOr } from '../model/refusal.js';
import {
  type KitOptions,
  kitRefusal,
  type OptionNaming,
  optionName,
  selectCases,
} from '../report/kit-options.js';
import { CLIENT_CASE_IDS, type ClientCaseId, type ClientListener } from './types.js';

/**
 * How long a harness may run in every case but times-out-on-hanging-provider: the emulator answers
 * at once and the longest case (refreshes-before-expiry) asks for about 6 s of tokens.
 */
export const DEFAULT_HARNESS_TIMEOUT_MS = 15_000;
/** How long the SDK has to give up on a provider that never answers (times-out-on-hanging-provider). */
export const DEFAULT_HANG_BOUND_MS = 15_000;
/** Longest bounds: a case never waits more than five minutes. */
const MAX_BOUND_MS = 300_000;
const MAX_EXEC_CHARS = 4096;

/** The options as JSON (`verifyClient`; the CLI builds the same object from its flags). */
export const ClientOptionsSchema = z.strictObject({
  exec: z
    .string()
    .trim()
    .min(1, 'give the command that runs your harness, e.g. "node harness.mjs"')
    .max(MAX_EXEC_CHARS)
    .refine((s) => !s.includes('\0'), 'holds a NUL character'),
  version: z.enum(API_VERSIONS).optional(),
  variant: z.enum(VARIANTS).optional(),
  only: z.union([z.string(), z.array(z.string())]).optional(),
  harnessTimeoutMs: z.number().int().min(1000).max(MAX_BOUND_MS).optional(),
  hangBoundMs: z.number().int().min(1000).max(MAX_BOUND_MS).optional(),
});

/** Options of `verifyClient` (docs/verify-client.md). */
export type ClientOptions = z.input<typeof ClientOptionsSchema> & {
  /** Called as each case starts and ends (progress). */
  listener?: ClientListener;
};

/** Options after checking, defaults applied. */
export interface ResolvedClientOptions {
  exec: string;
  version: ApiVersion;
  variant: Variant;
  cases: ReadonlySet<ClientCaseId>;
  harnessTimeoutMs: number;
  hangBoundMs: number;
}

const CLIENT_OPTIONS: KitOptions = {
  code: 'verify_client_options_invalid',
  flags: {
    exec: '--exec',
    version: '--version',
    variant: '--variant',
    only: '--only',
    harnessTimeoutMs: '--harness-timeout-ms',
    hangBoundMs: '--hang-bound-ms',
  },
  required: () =>
    'the command that runs your harness, e.g. --exec "node harness.mjs" (docs/verify-client.md)',
};

/** Checks the options; every problem is an InputError saying what to fix. */
export function resolveClientOptions(input: unknown, naming: OptionNaming = 'json'): ResolvedClientOptions {
  const o = parseOr(ClientOptionsSchema, kitRefusal(CLIENT_OPTIONS, naming), input);
  return {
    exec: o.exec,
    version: o.version ?? '1.7',
    variant: o.variant ?? 'json',
    cases: selectCases(
      o.only,
      CLIENT_CASE_IDS,
      'verify_client_unknown_case',
      optionName(CLIENT_OPTIONS, naming)('only'),
    ),
    harnessTimeoutMs: o.harnessTimeoutMs ?? DEFAULT_HARNESS_TIMEOUT_MS,
    hangBoundMs: o.hangBoundMs ?? DEFAULT_HANG_BOUND_MS,
  };
}
