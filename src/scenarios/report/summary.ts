import type { ScenarioResult } from '../run/results.js';

/** Counts over a whole run. */
export interface RunSummary {
  scenarios: number;
  passed: number;
  failed: number;
  errors: number;
  expectations: number;
  expectationsFailed: number;
  durationMs: number;
}

/** Adds up scenario results. */
export function summarize(results: readonly ScenarioResult[]): RunSummary {
  const expectations = results.flatMap((r) => r.steps.flatMap((s) => s.expectations));
  return {
    scenarios: results.length,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
    expectations: expectations.length,
    expectationsFailed: expectations.filter((e) => !e.passed).length,
    durationMs: results.reduce((t, r) => t + r.durationMs, 0),
  };
}
