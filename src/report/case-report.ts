/**
 * The shape every conformance kit reports a case in (`verify`, `verify-client`) and the ways it is
 * written: one console block, one JUnit testcase. A kit's case ids and extra fields are its own.
 */
import type { JunitCase } from './junit.js';

export type ReportedStatus = 'passed' | 'failed' | 'warned' | 'skipped';

/** One case as a kit reports it. */
export interface ReportedCase {
  id: string;
  title: string;
  status: ReportedStatus;
  reason: string;
  evidence: ReadonlyArray<{ sent: string; received: string }>;
  rule: string;
  fix: string;
  durationMs: number;
}

export const STATUS_MARK: Record<ReportedStatus, string> = {
  passed: '✓',
  failed: '✗',
  warned: '!',
  skipped: '–',
};

/** One case: its line; under a failure what was sent, what came back, the rule and the fix; under a warning the same without the rule. */
export function formatReportedCase(r: ReportedCase): string {
  const lines = [`  ${STATUS_MARK[r.status]} ${r.id} — ${r.reason}`];
  if (r.status === 'failed' || r.status === 'warned') {
    for (const e of r.evidence) lines.push(`      sent:     ${e.sent}`, `      received: ${e.received}`);
    if (r.status === 'failed') lines.push(`      rule:     ${r.rule}`);
    lines.push(`      fix:      ${r.fix}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The summary line: the verdict and the counts. */
export function formatTally(report: {
  cases: readonly unknown[];
  passed: number;
  failed: number;
  warned: number;
  skipped: number;
  durationMs: number;
}): string {
  const n = report.cases.length;
  return (
    `\n${report.failed > 0 ? 'FAILED' : 'OK'}: ${n} case${n === 1 ? '' : 's'}: ${report.passed} passed, ${report.failed} failed, ` +
    `${report.warned} warned, ${report.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)\n`
  );
}

/** One JUnit testcase: a failure's text is its reason, evidence, rule and fix; a warning passes with it in `<system-out>`. */
export function junitCaseOf(classname: string, r: ReportedCase, systemOut = ''): JunitCase {
  const c = { classname, name: `${r.id}: ${r.title}`, timeMs: r.durationMs };
  if (r.status === 'skipped') return { ...c, skipped: { message: r.reason } };
  if (r.status === 'passed') return systemOut ? { ...c, systemOut } : c;
  if (r.status === 'warned')
    return {
      ...c,
      systemOut: [`warning: ${r.reason}`, `fix: ${r.fix}`, systemOut].filter(Boolean).join('\n'),
    };
  const text = [
    r.reason,
    ...r.evidence.flatMap((e) => [`sent: ${e.sent}`, `received: ${e.received}`]),
    `rule: ${r.rule}`,
    `fix: ${r.fix}`,
  ].join('\n');
  return { ...c, failure: { message: r.reason, type: r.id, text }, ...(systemOut ? { systemOut } : {}) };
}
