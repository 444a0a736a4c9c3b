import type { ExpectationResult } from '../run/results.js';

/** Notifications shown per failed expectation in text reports; the JSON report keeps them all. */
const MAX_SHOWN = 10;

/**
 * The attempts behind a failed notifications expectation, as indented text lines (console and
 * JUnit `<failure>` text): what the receiver answered, the TLS cause, the timeout.
 */
export function evidenceLines(e: ExpectationResult): string[] {
  const list = e.notifications ?? [];
  const lines: string[] = [];
  for (const n of list.slice(0, MAX_SHOWN)) {
    const count = `${n.attempts.length} attempt${n.attempts.length === 1 ? '' : 's'}`;
    lines.push(`${n.id} (${n.credential}, ${n.bookingStatus}): ${n.state}, ${count}`);
    for (const a of n.attempts)
      lines.push(
        `  attempt ${a.number} at ${a.at}: ${a.outcome}${a.statusCode === null ? '' : ` ${a.statusCode}`} — ${a.message}`,
      );
  }
  if (list.length > MAX_SHOWN) lines.push(`… and ${list.length - MAX_SHOWN} more (all in the --json report)`);
  return lines;
}
