import { show } from '../run/match.js';
import type { ScenarioResult, StepResult } from '../run/results.js';
import type { RunListener } from '../run/runner.js';
import type { Scenario } from '../schema/index.js';
import { evidenceLines } from './evidence.js';
import { summarize } from './summary.js';

type Write = (text: string) => void;

const MARK: Record<StepResult['status'], string> = { passed: '✓', failed: '✗', error: '!', skipped: '-' };
const ms = (n: number) => `${Math.round(n)} ms`;

/** Prints progress per step as a run goes. */
export function consoleProgress(write: Write): RunListener {
  return {
    scenarioStart(file: string, scenario: Scenario) {
      write(`\n▶ ${scenario.name} (${file})\n`);
    },
    note(text: string) {
      write(`  note: ${text}\n`);
    },
    step(s: StepResult) {
      const detail = s.detail ? ` — ${s.detail}` : '';
      write(`  ${MARK[s.status]} ${s.index} ${s.label}${s.status === 'skipped' ? ' (skipped)' : detail}\n`);
      for (const e of s.expectations) {
        if (e.passed) continue;
        write(`      ✗ ${e.name}\n`);
        for (const m of e.mismatches)
          write(`          ${m.field}: expected ${show(m.expected)}, actual ${show(m.actual)}\n`);
        for (const line of evidenceLines(e)) write(`          ${line}\n`);
      }
      if (s.error) write(`      error: ${s.error}\n`);
    },
    scenarioEnd(r: ScenarioResult) {
      if (r.status === 'error' && r.steps.length === 0) write(`  ! ${r.error}\n`);
      write(
        `  ${r.status === 'passed' ? '✓ passed' : r.status === 'failed' ? '✗ failed' : '! error'} in ${ms(r.durationMs)}\n`,
      );
    },
  };
}

/** A readable summary: counts, then every failure with the step, expected and actual. */
export function formatSummary(results: readonly ScenarioResult[]): string {
  const s = summarize(results);
  const lines = [
    '',
    `${s.scenarios} scenario${s.scenarios === 1 ? '' : 's'}: ${s.passed} passed, ${s.failed} failed, ${s.errors} with errors; ` +
      `${s.expectations} expectations: ${s.expectations - s.expectationsFailed} held, ${s.expectationsFailed} failed (${ms(s.durationMs)})`,
  ];
  const failures: string[] = [];
  for (const r of results) {
    if (r.status === 'error' && r.steps.length === 0) failures.push(`${r.file} › ${r.error}`);
    for (const step of r.steps) {
      for (const e of step.expectations.filter((x) => !x.passed)) {
        failures.push(`${r.file} › step ${step.index} (${step.label}) › ${e.name}`);
        for (const m of e.mismatches)
          failures.push(`    ${m.field}: expected ${show(m.expected)}, actual ${show(m.actual)}`);
        for (const line of evidenceLines(e)) failures.push(`    ${line}`);
      }
      if (step.error) failures.push(`${r.file} › step ${step.index} (${step.label}) › error: ${step.error}`);
    }
  }
  if (failures.length) lines.push('', 'Failures:', ...failures.map((f) => `  ${f}`));
  return `${lines.join('\n')}\n`;
}
