import type { AttemptOutcome } from '../../delivery/outcome.js';
import type { StepKind } from '../schema/index.js';
import type { Mismatch } from './match.js';

/** One delivery attempt as a failed expectation shows it: why a notification is where it is. */
export interface AttemptEvidence {
  number: number;
  /** Emulator time the attempt started. */
  at: string;
  outcome: AttemptOutcome;
  statusCode: number | null;
  /** The emulator's cause, e.g. `TLS: certificate issuer not trusted …`, `HTTP 401 …`. */
  message: string;
}

/** A notification a failed expectation looked at, with every attempt made so far. */
export interface NotificationEvidence {
  id: string;
  /** The credential id as the scenario wrote it. */
  credential: string;
  bookingStatus: string;
  state: string;
  attempts: AttemptEvidence[];
}

/** One expectation (an `expect` entry, or a login step's `expect`) and whether it held. */
export interface ExpectationResult {
  name: string;
  passed: boolean;
  mismatches: Mismatch[];
  /** A failed notifications expectation: the notifications it looked at and their attempts. */
  notifications?: NotificationEvidence[];
}

export type StepStatus = 'passed' | 'failed' | 'error' | 'skipped';

export interface StepResult {
  /** 1-based position in the file. */
  index: number;
  kind: StepKind;
  label: string;
  status: StepStatus;
  durationMs: number;
  /** Why the step could not run (an admin API refusal, a timeout, …). */
  error?: string;
  expectations: ExpectationResult[];
  /** What the step did, for progress output (e.g. `BookingID 1000001, routed to 2 credentials`). */
  detail?: string;
}

export interface ScenarioResult {
  file: string;
  name: string;
  status: 'passed' | 'failed' | 'error';
  durationMs: number;
  steps: StepResult[];
  /** Set when the scenario could not start or stopped on a step error. */
  error?: string;
  notes: string[];
}
