import type { StepKind } from '../schema/index.js';
import type { Mismatch } from './match.js';

/** One expectation (an `expect` entry, or a login step's `expect`) and whether it held. */
export interface ExpectationResult {
  name: string;
  passed: boolean;
  mismatches: Mismatch[];
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
