/** The SDK conformance kit's public shapes: case ids, one case's result, the report (docs/verify-client.md). */
import type { ApiVersion, Variant } from '../auth/index.js';
import type { CaseStatus, Evidence } from '../verify/types.js';

export type { CaseStatus, Evidence };

/** Case ids are public (CI and other tools read them): never rename one, add new ones instead. */
export const CLIENT_CASE_IDS = [
  'well-formed-request',
  'reuses-valid-token',
  'refreshes-before-expiry',
  'reports-wrong-password',
  'reports-version-refused',
  'recovers-from-transient-failures',
  'times-out-on-hanging-provider',
  'reports-malformed-answer',
] as const;
export type ClientCaseId = (typeof CLIENT_CASE_IDS)[number];

/** One line per case: the report's titles and `verify-client --help` read this one table. */
export const CLIENT_CASE_TITLES: Readonly<Record<ClientCaseId, string>> = {
  'well-formed-request':
    'sends GetAccessToken as the variant requires: method, path, Content-Type with charset, SOAPAction or action, envelope, field names',
  'reuses-valid-token': 'asked for 20 tokens in a row, calls GetAccessToken once',
  'refreshes-before-expiry':
    'with a short token lifetime, never hands out an expired token and refreshes only near ExpiresAt (1.7)',
  'reports-wrong-password':
    'reports 1200 (a wrong password) as an error, never as a token, and does not retry it',
  'reports-version-refused': 'reports 1201 (user not authorized for 1.7) and does not retry it (1.7)',
  'recovers-from-transient-failures':
    'after 503s for 1.5 s and a dropped connection, retries a bounded number of times with pauses, or reports the error',
  'times-out-on-hanging-provider': 'gives up on a provider that never answers, within a bound, and says so',
  'reports-malformed-answer':
    'reports an answer cut short as an error, without taking it for a token or calling in a loop',
};

/** One GetAccessToken call the emulator saw during a case (from its request journal). */
export interface ClientCall {
  /** Milliseconds from the start of the case. */
  atMs: number;
  /** The request method (absent when the journal kept no copy of the request). */
  method?: string;
  /** Path and query as sent. */
  target: string;
  /** The journal's outcome (`ok`, `invalid_credentials`, `fault`, …). */
  outcome: string;
  transactionCode: string | null;
  httpStatus: number;
  /** The injected fault that answered it, if any (`status`, `drop`, `malformed`, `delay`). */
  fault?: string;
}

/** What the harness did in one case. */
export interface HarnessOutcome {
  /** Exit code, or null when it was killed (see `killedAfterMs`) or ended by a signal. */
  exitCode: number | null;
  signal: string | null;
  /** Set when the kit ended it at the case's bound. */
  killedAfterMs?: number;
  durationMs: number;
  /** Lines printed on stdout (the tokens), at most 100 kept. */
  stdout: string[];
  /** The end of its stderr (at most 2 KiB). */
  stderr: string;
}

/** The outcome of one case. */
export interface ClientCaseResult {
  id: ClientCaseId;
  title: string;
  status: CaseStatus;
  /** One line: why it passed, failed, warned or was skipped; a failure names the bug. */
  reason: string;
  evidence: Evidence[];
  /** The rule of the specification (or of the kit, docs/verify-client.md) the case checks. */
  rule: string;
  /** What to change in the SDK when the case does not pass. */
  fix: string;
  durationMs: number;
  /** The harness's environment for this case (VERIFY_CLIENT_TOKENS, …; the password left out). */
  asked?: Record<string, string>;
  harness?: HarnessOutcome;
  /** The first calls the emulator saw (at most 200: a storm makes thousands); `callCount` counts them all. */
  calls?: ClientCall[];
  callCount?: number;
}

/** The report `--json` writes and `verifyClient` answers. */
export interface ClientReport {
  exec: string;
  version: ApiVersion;
  variant: Variant;
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
  cases: ClientCaseResult[];
  harnessTimeoutMs: number;
  hangBoundMs: number;
  durationMs: number;
}

/** Follows a run as it happens (the console reporter prints progress from it). */
export interface ClientListener {
  caseStart?(id: ClientCaseId, title: string, index: number, total: number): void;
  caseEnd?(result: ClientCaseResult, index: number, total: number): void;
}
