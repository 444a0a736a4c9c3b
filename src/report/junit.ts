/**
 * The one JUnit XML model of the reports (`run --junit`, `verify --junit`): suites of test cases,
 * each passed, failed, in error or skipped, rendered as CI servers read it.
 */
import { xmlEscape as esc, junitSeconds as sec } from './xml.js';

/** One test case: passed unless it carries a failure, an error or a skip. */
export interface JunitCase {
  classname: string;
  name: string;
  timeMs: number;
  /** An expectation that did not hold: `message` is the headline, `text` the full reason. */
  failure?: { message: string; type: string; text: string };
  /** Something that could not be carried out. */
  error?: { message: string; type: string };
  skipped?: { message?: string };
  /** Shown beside a passed case (e.g. a warning). */
  systemOut?: string;
}

export interface JunitSuite {
  name: string;
  /** The file the suite came from (scenario runs). */
  file?: string;
  timeMs: number;
  cases: JunitCase[];
}

/** The whole report: `<testsuites>` named `name`, its totals counted from the cases. */
export function junitXml(
  report: { name: string; timeMs: number; suites: readonly JunitSuite[] },
  timestamp = new Date(),
): string {
  const total = { tests: 0, failures: 0, errors: 0, skipped: 0 };
  const suites = report.suites.map((suite) => {
    const counts = countCases(suite.cases);
    for (const k of Object.keys(total) as Array<keyof typeof total>) total[k] += counts[k];
    const file = suite.file === undefined ? '' : ` file="${esc(suite.file)}"`;
    return (
      `  <testsuite name="${esc(suite.name)}"${file} tests="${counts.tests}" failures="${counts.failures}" errors="${counts.errors}" skipped="${counts.skipped}" time="${sec(suite.timeMs)}" timestamp="${timestamp.toISOString()}">\n` +
      `${suite.cases.map(testcase).join('\n')}\n  </testsuite>`
    );
  });
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<testsuites name="${esc(report.name)}" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}" time="${sec(report.timeMs)}">\n` +
    `${suites.join('\n')}\n</testsuites>\n`
  );
}

function countCases(cases: readonly JunitCase[]) {
  return {
    tests: cases.length,
    failures: cases.filter((c) => c.failure).length,
    errors: cases.filter((c) => c.error).length,
    skipped: cases.filter((c) => c.skipped).length,
  };
}

function testcase(c: JunitCase): string {
  const open = `    <testcase classname="${esc(c.classname)}" name="${esc(c.name)}" time="${sec(c.timeMs)}"`;
  const inner: string[] = [];
  if (c.failure)
    inner.push(
      `<failure message="${esc(c.failure.message)}" type="${esc(c.failure.type)}">${esc(c.failure.text)}</failure>`,
    );
  if (c.error) inner.push(`<error message="${esc(c.error.message)}" type="${esc(c.error.type)}"/>`);
  if (c.skipped)
    inner.push(
      c.skipped.message === undefined ? '<skipped/>' : `<skipped message="${esc(c.skipped.message)}"/>`,
    );
  if (c.systemOut !== undefined) inner.push(`<system-out>${esc(c.systemOut)}</system-out>`);
  if (inner.length === 0) return `${open}/>`;
  return `${open}>\n${inner.map((i) => `      ${i}\n`).join('')}    </testcase>`;
}
