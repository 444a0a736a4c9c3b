import type { ScenarioResult } from '../run/results.js';
import { summarize } from './summary.js';

/** The machine-readable report written by `--json FILE`. */
export function jsonReport(results: readonly ScenarioResult[]): string {
  return `${JSON.stringify({ format: 'reportbo-emulator-run/1', summary: summarize(results), scenarios: results }, null, 2)}\n`;
}
