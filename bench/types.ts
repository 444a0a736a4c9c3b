/** One benchmark suite: runs, then answers a markdown section of the report (bench/.work/benchmarks.md). */
export interface BenchSuite {
  /** Short id, used to pick suites: `npm run bench -- generate delivery`. */
  name: string;
  /** Section heading in the report. */
  title: string;
  run(log: (line: string) => void): Promise<string>;
}

/** Median of a list of numbers (the list is not modified). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Formats a number with thousands separators and at most `digits` decimals. */
export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}
