/** The report files: `--json` (the report object itself) and `--junit` (one testcase per case). */
import { type JunitCase, junitXml } from '../../report/index.js';
import type { VerifyReport } from '../types.js';

/** The JSON report (`--json`, `POST /__admin/verify`). */
export function verifyJson(report: VerifyReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/**
 * JUnit XML (src/report/junit.ts): one testsuite, one testcase per case; a failure's text is its
 * reason and evidence, a skipped case is `<skipped/>`, a warned one passes with the warning in
 * `<system-out>`.
 */
export function verifyJunit(report: VerifyReport, timestamp = new Date()): string {
  const cases = report.cases.map((r): JunitCase => {
    const c = { classname: 'reportbo-emulator verify', name: `${r.id}: ${r.title}`, timeMs: r.durationMs };
    if (r.status === 'passed') return c;
    if (r.status === 'skipped') return { ...c, skipped: { message: r.reason } };
    if (r.status === 'warned') return { ...c, systemOut: `warning: ${r.reason}\nfix: ${r.fix}` };
    const text = [
      r.reason,
      ...r.evidence.flatMap((e) => [`sent: ${e.sent}`, `received: ${e.received}`]),
      `rule: ${r.rule}`,
      `fix: ${r.fix}`,
    ].join('\n');
    return { ...c, failure: { message: r.reason, type: r.id, text } };
  });
  return junitXml(
    {
      name: 'reportbo-emulator verify',
      timeMs: report.durationMs,
      suites: [{ name: `verify ${report.receiver}`, timeMs: report.durationMs, cases }],
    },
    timestamp,
  );
}
