import { show } from '../run/match.js';
import type { ScenarioResult } from '../run/results.js';
import { evidenceLines } from './evidence.js';
import { summarize } from './summary.js';
import { junitSeconds, xmlEscape } from './xml.js';

const esc = xmlEscape;
const sec = junitSeconds;

/**
 * JUnit XML as CI servers read it: one testsuite per scenario, one testcase per expectation, step
 * errors as `<error>` testcases, steps skipped after an error as `<skipped/>`.
 */
export function junitXml(results: readonly ScenarioResult[], timestamp = new Date()): string {
  const total = summarize(results);
  const suites = results.map((r) => {
    const cases: string[] = [];
    let failures = 0;
    let errors = 0;
    let skipped = 0;
    const classname = esc(r.name);
    if (r.status === 'error' && r.steps.length === 0) {
      errors++;
      cases.push(
        `    <testcase classname="${classname}" name="setup" time="0"><error message="${esc(r.error ?? '')}" type="setup"/></testcase>`,
      );
    }
    for (const step of r.steps) {
      const per = step.expectations.length ? step.durationMs / step.expectations.length : step.durationMs;
      for (const e of step.expectations) {
        const name = esc(`step ${step.index}: ${step.label} › ${e.name}`);
        if (e.passed) {
          cases.push(`    <testcase classname="${classname}" name="${name}" time="${sec(per)}"/>`);
          continue;
        }
        failures++;
        const text = e.mismatches.map(
          (m) => `${m.field}: expected ${show(m.expected)}, actual ${show(m.actual)}`,
        );
        // The failure text is what GitHub and GitLab show: the attempts say why a delivery failed.
        const evidence = evidenceLines(e);
        const body = evidence.length ? [...text, '', 'attempts:', ...evidence] : text;
        cases.push(
          `    <testcase classname="${classname}" name="${name}" time="${sec(per)}">\n` +
            `      <failure message="${esc(text[0] ?? 'failed')}" type="expectation">${esc(body.join('\n'))}</failure>\n    </testcase>`,
        );
      }
      const name = esc(`step ${step.index}: ${step.label}`);
      if (step.status === 'error') {
        errors++;
        cases.push(
          `    <testcase classname="${classname}" name="${name}" time="${sec(step.durationMs)}">\n` +
            `      <error message="${esc(step.error ?? '')}" type="step"/>\n    </testcase>`,
        );
      } else if (step.status === 'skipped' && step.kind === 'expect') {
        skipped++;
        cases.push(`    <testcase classname="${classname}" name="${name}" time="0"><skipped/></testcase>`);
      }
    }
    return (
      `  <testsuite name="${classname}" file="${esc(r.file)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}" time="${sec(r.durationMs)}" timestamp="${timestamp.toISOString()}">\n` +
      `${cases.join('\n')}\n  </testsuite>`
    );
  });
  const tests = suites.reduce((n, s) => n + (s.match(/<testcase /g)?.length ?? 0), 0);
  const errors = results.reduce(
    (n, r) =>
      n +
      r.steps.filter((s) => s.status === 'error').length +
      (r.status === 'error' && r.steps.length === 0 ? 1 : 0),
    0,
  );
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="reportbo-emulator scenarios" tests="${tests}" failures="${total.expectationsFailed}" errors="${errors}" time="${sec(total.durationMs)}">\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}
