import { type JunitCase, junitXml } from '../../report/index.js';
import { show } from '../run/match.js';
import type { ScenarioResult } from '../run/results.js';
import { evidenceLines } from './evidence.js';
import { summarize } from './summary.js';

/**
 * The JUnit report of a run (src/report/junit.ts): one testsuite per scenario, one testcase per
 * expectation, step errors as `<error>` testcases, steps skipped after an error as `<skipped/>`.
 */
export function scenarioJunit(results: readonly ScenarioResult[], timestamp = new Date()): string {
  const suites = results.map((r) => {
    const cases: JunitCase[] = [];
    const classname = r.name;
    if (r.status === 'error' && r.steps.length === 0)
      cases.push({ classname, name: 'setup', timeMs: 0, error: { message: r.error ?? '', type: 'setup' } });
    for (const step of r.steps) {
      const per = step.expectations.length ? step.durationMs / step.expectations.length : step.durationMs;
      for (const e of step.expectations) {
        const name = `step ${step.index}: ${step.label} › ${e.name}`;
        if (e.passed) {
          cases.push({ classname, name, timeMs: per });
          continue;
        }
        const text = e.mismatches.map(
          (m) => `${m.field}: expected ${show(m.expected)}, actual ${show(m.actual)}`,
        );
        // The failure text is what GitHub and GitLab show: the attempts say why a delivery failed.
        const evidence = evidenceLines(e);
        const body = evidence.length ? [...text, '', 'attempts:', ...evidence] : text;
        cases.push({
          classname,
          name,
          timeMs: per,
          failure: { message: text[0] ?? 'failed', type: 'expectation', text: body.join('\n') },
        });
      }
      const name = `step ${step.index}: ${step.label}`;
      if (step.status === 'error')
        cases.push({
          classname,
          name,
          timeMs: step.durationMs,
          error: { message: step.error ?? '', type: 'step' },
        });
      else if (step.status === 'skipped' && step.kind === 'expect')
        cases.push({ classname, name, timeMs: 0, skipped: {} });
    }
    return { name: r.name, file: r.file, timeMs: r.durationMs, cases };
  });
  return junitXml(
    { name: 'reportbo-emulator scenarios', timeMs: summarize(results).durationMs, suites },
    timestamp,
  );
}
