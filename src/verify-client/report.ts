/** The SDK kit's reports: console progress and summary, `--json`, `--junit` (src/report/). */
import { formatReportedCase, formatTally, junitCaseOf, junitXml } from '../report/index.js';
import type { ResolvedClientOptions } from './options.js';
import type { ClientCaseResult, ClientListener, ClientReport } from './types.js';

type Write = (text: string) => void;

/** The first lines: what is checked and how. */
export function formatClientHeader(o: ResolvedClientOptions): string {
  const n = o.cases.size;
  return (
    `reportbo-emulator verify-client --exec "${o.exec}" --version ${o.version} --variant ${o.variant}\n` +
    `  ${n} case${n === 1 ? '' : 's'}, harness timeout ${o.harnessTimeoutMs} ms, hang bound ${o.hangBoundMs} ms\n\n`
  );
}

export const formatClientSummary = (report: ClientReport): string => formatTally(report);

/**
 * Progress: each case's block as it ends; on a terminal a status line ("running 7 cases") stands
 * below them until the last ends (the cases after the first run at once).
 */
export function clientProgress(write: Write, terminal: boolean): ClientListener {
  let running = 0;
  const status = () => {
    if (terminal && running > 0) write(`  … running ${running} case${running === 1 ? '' : 's'}`);
  };
  const clear = () => {
    if (terminal && running > 0) write('\r\x1b[K');
  };
  return {
    caseStart() {
      clear();
      running++;
      status();
    },
    caseEnd(result) {
      clear();
      running--;
      write(formatReportedCase(result));
      status();
    },
  };
}

/** The JSON report (`--json`; `--replay` reads it back). */
export function clientJson(report: ClientReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** JUnit XML: one testsuite, one testcase per case; what the harness printed goes in `<system-out>`. */
export function clientJunit(report: ClientReport, timestamp = new Date()): string {
  const classname = 'reportbo-emulator verify-client';
  return junitXml(
    {
      name: classname,
      timeMs: report.durationMs,
      suites: [
        {
          name: `verify-client ${report.exec} (${report.version} ${report.variant})`,
          timeMs: report.durationMs,
          cases: report.cases.map((r) => junitCaseOf(classname, r, harnessText(r))),
        },
      ],
    },
    timestamp,
  );
}

function harnessText(r: ClientCaseResult): string {
  if (!r.harness) return '';
  const calls = (r.calls ?? []).map(
    (c) =>
      `  +${c.atMs} ms ${c.method ?? ''} ${c.target} → ${c.fault ? `fault ${c.fault}` : `${c.outcome} (HTTP ${c.httpStatus})`}`,
  );
  return [
    `calls (${r.callCount ?? calls.length}${calls.length < (r.callCount ?? 0) ? `, the first ${calls.length} listed` : ''}):`,
    ...calls,
    `stdout (${r.harness.stdout.length} lines):`,
    ...r.harness.stdout.map((l) => `  ${l}`),
    r.harness.stderr ? `stderr:\n${r.harness.stderr}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
