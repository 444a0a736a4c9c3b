/** The verify kit's public shapes: its options, one case's result and the whole report (docs/verify.md). */

import type { CaseTrace } from './trace-shape.js';

/** Case ids are public (other tools read them): never rename one, add new ones instead. */
export const CASE_IDS = [
  'tls',
  'acknowledges-issue',
  'acknowledges-every-status',
  'rejects-wrong-api-key',
  'rejects-missing-authorization',
  'acknowledges-redelivery',
  'handles-void-before-issue',
  'accepts-minimal-body',
  'accepts-maximal-body',
  'accepts-large-body',
  'accepts-old-update-date',
  'survives-batch-burst',
  'records-final-status',
  'same-second-filename-collision',
  'records-concurrent-issue-and-void',
  'records-newest-update-date',
  'answers-within-timeout',
] as const;
export type CaseId = (typeof CASE_IDS)[number];

/** One line per case: the report's titles and `verify --help` read this one table. */
export const CASE_TITLES: Readonly<Record<CaseId, string>> = {
  tls: 'serves HTTPS with TLS 1.2 or higher and a certificate valid for its host',
  'acknowledges-issue': 'acknowledges a valid Issue with exactly 200',
  'acknowledges-every-status':
    'acknowledges Voided, Exchanged and Issued-Exch notifications with exactly 200',
  'rejects-wrong-api-key': 'refuses a notification carrying another Bearer key',
  'rejects-missing-authorization': 'refuses a notification without an Authorization header',
  'acknowledges-redelivery': 'acknowledges a byte-identical redelivery with 200 again',
  'handles-void-before-issue':
    'acknowledges a Void that arrives before its Issue, and the late Issue after it',
  'accepts-minimal-body': 'acknowledges a body with every optional member and field left out',
  'accepts-maximal-body':
    'acknowledges the largest body: 9 passengers, 8 segments, every optional member, non-ASCII names, long RawData',
  'accepts-large-body':
    'acknowledges a large body that does not compress (varied RawData, about 64 KiB on the wire)',
  'accepts-old-update-date':
    'acknowledges a notification whose UpdateDate is days old (a late redelivery or a manual redelivery)',
  'survives-batch-burst':
    'acknowledges the notifications one minute-55 batch redelivers at once (50 by default, --burst-concurrency)',
  'records-final-status':
    'records the last status sent; duplicates and late redeliveries change nothing (--probe)',
  'same-second-filename-collision':
    'records Voided when an Issue and its Void share a Content-Disposition filename (--probe)',
  'records-concurrent-issue-and-void':
    'records Voided when an Issue and its Void arrive at the same time in one batch (--probe)',
  'records-newest-update-date':
    'records the newer UpdateDate across an hour, a day and a month boundary, and keeps a Void whose Issue with the same UpdateDate came after it (--probe)',
  'answers-within-timeout': 'answers every delivery of the run within the response timeout',
};

export type CaseStatus = 'passed' | 'failed' | 'warned' | 'skipped';

/** One request the kit made and what came back, as a failure report shows it. */
export interface Evidence {
  /** What was sent, e.g. `POST https://… Issued BookingID 1234567, Authorization: Bearer <--api-key>`. */
  sent: string;
  /** What came back, e.g. `HTTP 202 after 4 ms, body "accepted"` or `no answer within 30000 ms`. */
  received: string;
}

/** The outcome of one case. */
export interface CaseResult {
  id: CaseId;
  title: string;
  status: CaseStatus;
  /** One line: why it passed, failed, warned or was skipped. */
  reason: string;
  evidence: Evidence[];
  /** The rule of the specification the case checks (section and rule). */
  rule: string;
  /** What to change in the receiver when the case does not pass. */
  fix: string;
  durationMs: number;
  /**
   * answers-within-timeout: answer times over the whole run, one request at a time (p50/p95/max),
   * the burst's apart (`burst`), and the longest stall of the kit's own event loop (`kitLagMs`).
   */
  timing?: Figures & { burst?: Figures; kitLagMs?: number };
  /**
   * What the case sent, what came back and what the probe read (src/verify/trace.ts), enough for
   * `verify --replay` to send the same bytes in the same order; absent for a case that did not run.
   */
  trace?: CaseTrace;
  /**
   * Diagnosis by experiment (docs/verify.md): the variations of a refused notification the kit sent
   * after the case failed, each with its answer and whether it flipped the verdict.
   */
  experiments?: Array<{ tried: string; answer: string; flipped: boolean }>;
}

/** Answer times: how many, and their p50, p95 and max. */
export interface Figures {
  answers: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** Several failed cases that share one cause, with what to fix first (docs/verify.md "Causes"). */
export interface CauseGroup {
  /**
   * `receiver-stopped`, `api-key`, `redirect`, `valid-bodies-refused` or `server-error`; or what an
   * experiment found instead (`header-name-case`, `content-encoding`, `content-type`, `body`, …).
   */
  cause: string;
  /** What the kit saw, in one line. */
  summary: string;
  /** What to fix first; the grouped cases' own fixes come after it. */
  fixFirst: string;
  /** The failed cases this cause explains. */
  cases: CaseId[];
}

/** The report `--json` writes and `verifyReceiver` answers. */
export interface VerifyReport {
  receiver: string;
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
  cases: CaseResult[];
  /** Causes shared by several failed cases, most fundamental first (empty when none). */
  causes: CauseGroup[];
  /** The seed of the generated bodies (give it back with --seed to send the same bookings). */
  seed: number;
  /** The --probe URL template, when one was given (`--replay` reads the probe there again). */
  probe?: string;
  probeDeadlineMs: number;
  responseTimeoutMs: number;
  durationMs: number;
  /**
   * The cases left unjudged (not run, or cut short while they ran) by `--budget`, or without it by the
   * longest wait for one answer (decision 0239), when any: the run then exits 1.
   */
  skippedForBudget?: CaseId[];
}

/** Follows a run as it happens (the console reporter prints progress from it). */
export interface VerifyListener {
  caseStart?(id: CaseId, title: string, index: number, total: number): void;
  caseEnd?(result: CaseResult, index: number, total: number): void;
}
