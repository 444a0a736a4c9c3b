/** The console report: one line per case as it ends, details under failures, a summary line. */
import { formatReportedCase } from '../../report/index.js';
import type { ResolvedOptions } from '../options.js';
import type { CaseResult, VerifyListener, VerifyReport } from '../types.js';

type Write = (text: string) => void;

/** The first line: what is checked and how. */
export function formatHeader(options: ResolvedOptions): string {
  const n = options.cases.size;
  return (
    `reportbo-emulator verify ${options.receiver}\n` +
    `  ${n} case${n === 1 ? '' : 's'}, response timeout ${options.responseTimeoutMs} ms, seed ${options.seed}` +
    `${options.probe ? `, probe ${options.probe}` : ''}\n\n`
  );
}

/** One case: its line, and under a failure or a warning what was sent, what came back and the fix. */
export const formatCase: (r: CaseResult) => string = formatReportedCase;

/** The summary line, after the causes shared by several failed cases (fix those first). */
export function formatSummary(report: VerifyReport): string {
  const n = report.cases.length;
  const unjudged = report.skippedForBudget ?? [];
  const verdict = report.failed > 0 ? 'FAILED' : unjudged.length > 0 ? 'NOT JUDGED' : 'OK';
  const causes = (report.causes ?? [])
    .map(
      (c) =>
        `\n  CAUSE ${c.cause} — ${c.summary}\n      fix first: ${c.fixFirst}\n      explains:  ${c.cases.join(', ')}\n`,
    )
    .join('');
  const budget = unjudged.length ? `\n  CUT SHORT: not judged: ${unjudged.join(', ')}\n` : '';
  return (
    `${causes}${budget}\n${verdict}: ${n} case${n === 1 ? '' : 's'}: ${report.passed} passed, ${report.failed} failed, ` +
    `${report.warned} warned, ${report.skipped} skipped (${(report.durationMs / 1000).toFixed(1)} s)\n`
  );
}

/**
 * Progress while cases run: on a terminal the running case is shown and then replaced by its
 * result line; in a log (no terminal) only the result lines are written, as each case ends.
 */
export function consoleProgress(write: Write, terminal: boolean): VerifyListener {
  return {
    caseStart(id, _title, index, total) {
      if (terminal) write(`  … [${index}/${total}] ${id}`);
    },
    caseEnd(result) {
      if (terminal) write('\r\x1b[K');
      write(formatCase(result));
    },
  };
}
