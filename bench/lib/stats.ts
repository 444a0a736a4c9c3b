/** Figures: percentiles, medians of alternating runs, and how a figure reads against its target. */
import { fmt, median } from '../types.js';

export { fmt, median };

/** The p-th percentile (0–100, nearest rank) of a list (not modified). */
export function percentile(values: readonly number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

/** `median (min–max, n runs)` of a list of runs. */
export function spread(values: readonly number[], digits = 0, unit = ''): string {
  if (!values.length) return 'n/a';
  const min = Math.min(...values);
  const max = Math.max(...values);
  return `${fmt(median(values), digits)}${unit} (${fmt(min, digits)}–${fmt(max, digits)}, ${values.length} runs)`;
}

/** `a / b` formatted as a ratio, or n/a when either is missing. */
export function ratio(a: number | undefined, b: number | undefined, digits = 2): string {
  if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0)
    return 'n/a';
  return `${fmt(a / b, digits)}×`;
}

/** One line of the targets table. */
export interface Verdict {
  target: string;
  figure: string;
  /** true met, false missed, undefined not measured. */
  met: boolean | undefined;
  note?: string;
}

/** The bars missed in this process, by target: bench/run.ts prints each as FAIL and exits 1. */
export const missedBars: string[] = [];

/** `met`, noting `target` as missed when it is false (a verdict written inline, not as a table). */
export function judge(target: string, met: boolean): boolean {
  if (!met) missedBars.push(target);
  return met;
}

/** Markdown table of verdicts; a missed one is noted (`missedBars`). */
export function verdictTable(rows: readonly Verdict[]): string {
  const lines = ['| Target | Figure | Verdict |', '|---|---|---|'];
  for (const r of rows) {
    if (r.met === false) judge(r.target, false);
    const verdict = r.met === undefined ? 'not measured' : r.met ? '**met**' : '**missed**';
    lines.push(`| ${r.target} | ${r.figure} | ${verdict}${r.note ? ` — ${r.note}` : ''} |`);
  }
  return lines.join('\n');
}

/** Markdown table from a header row and rows. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** True when BENCH_QUICK is set: shorter runs, fewer rounds, for iterating on the suites. */
export const QUICK = !!process.env.BENCH_QUICK && process.env.BENCH_QUICK !== '0';

/** A number from the environment, or the default (quick or full). */
export function envNumber(name: string, full: number, quick: number): number {
  const raw = process.env[name];
  if (raw !== undefined && raw !== '' && Number.isFinite(Number(raw))) return Number(raw);
  return QUICK ? quick : full;
}
