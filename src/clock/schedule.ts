/** Redelivery batches run at minute 55 of every hour (spec "Limits": "at minute 55"). */
export const BATCH_MINUTE = 55;
export const HOUR_MS = 3_600_000;
const BATCH_OFFSET_MS = BATCH_MINUTE * 60_000;

/** The first batch instant strictly after `fromMs` (UTC; batches fall on HH:55:00.000). */
export function nextBatchAfter(fromMs: number): number {
  const hourStart = Math.floor(fromMs / HOUR_MS) * HOUR_MS;
  const candidate = hourStart + BATCH_OFFSET_MS;
  return candidate > fromMs ? candidate : candidate + HOUR_MS;
}

/** Every batch instant `t` with `fromMs < t <= toMs`, in order. */
export function batchesBetween(fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let t = nextBatchAfter(fromMs); t <= toMs; t = nextBatchAfter(t)) out.push(t);
  return out;
}
