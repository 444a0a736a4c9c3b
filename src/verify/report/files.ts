/** The report files: `--json` (the report object itself) and `--junit` (one testcase per case). */
import { junitCaseOf, junitXml } from '../../report/index.js';
import { traceLines } from '../trace.js';
import type { CaseResult, VerifyReport } from '../types.js';

/** The JSON report (`--json`, `POST /__admin/verify`). */
export function verifyJson(report: VerifyReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * JUnit XML (src/report/junit.ts): one testsuite, one testcase per case; a failure's text is its
 * reason and evidence, a skipped case is `<skipped/>`, a warned one passes with the warning in
 * `<system-out>`. Every case that ran also lists its trace in `<system-out>`: each notification sent
 * (BookingID, UpdateDate, status) with the answer, and each probe reading; the bytes themselves are in
 * the JSON report, which `verify --replay` reads.
 */
export function verifyJunit(report: VerifyReport, timestamp = new Date()): string {
  const cases = report.cases.map((r) => junitCaseOf('reportbo-emulator verify', r, traceText(r)));
  return junitXml(
    {
      name: 'reportbo-emulator verify',
      timeMs: report.durationMs,
      suites: [{ name: `verify ${report.receiver}`, timeMs: report.durationMs, cases }],
    },
    timestamp,
  );
}

function traceText(r: CaseResult): string {
  if (!r.trace) return '';
  const lines = traceLines(r.trace);
  if (lines.length === 0) return '';
  return [
    `trace (ms from the start of the case; replay: reportbo-emulator verify --replay <the --json report> --only ${r.id}):`,
    ...lines,
  ].join('\n');
}
