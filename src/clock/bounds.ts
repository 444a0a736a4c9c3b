/**
 * The range of every instant and duration the emulator accepts (admin bodies, scenario steps,
 * settings; decision 0120). A JavaScript Date ends at year 275760 and `toISOString()` throws past
 * it, so an unbounded `for` or `to` once stored a value that failed every later read; and a manual
 * clock advanced by centuries crossed millions of batch instants. Checked where a value enters.
 */
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** The earliest instant accepted: 1970-01-01T00:00:00Z. */
export const MIN_INSTANT_MS = 0;
/** The latest instant accepted: 9999-12-31T23:59:59.999Z (four-digit years, as ISO 8601 writes them). */
export const MAX_INSTANT_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
/** The range in words, for messages and the docs. */
export const INSTANT_RANGE = '1970-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';

/**
 * The longest duration accepted (an outage window, a clock advance, a wait): 366 days, 8,784 batch
 * instants. A manual clock runs every batch it crosses, so this also bounds one advance's work.
 */
export const MAX_DURATION_MS = 366 * DAY_MS;
/** The bound in words, for messages and the docs. */
export const DURATION_RANGE = '0 to P366D (31622400000 ms)';

/** Whether `ms` is an instant inside the accepted range. */
export function instantInRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS;
}

/** Why `text` is not an accepted instant (`zone`: a zone suffix is required), or undefined when it is. */
export function instantProblem(text: string, zone = true): string | undefined {
  const ms = Date.parse(text);
  if ((zone && !/(?:Z|[+-]\d\d:?\d\d)$/i.test(text)) || Number.isNaN(ms))
    return `expected an ISO 8601 instant${zone ? ' with a zone' : ''}, e.g. 2026-04-27T10:00:00Z`;
  if (!instantInRange(ms)) return `instant out of range: accepted ${INSTANT_RANGE}`;
  return undefined;
}

/**
 * An ISO 8601 instant with its zone inside the accepted range, e.g. `2026-04-27T10:00:00Z`: the one
 * instant type of every admin body and query, scenario step and outage (decision 0120): no route
 * parses an instant by hand.
 */
export const InstantInput = z
  .string()
  .superRefine((s, ctx) => {
    const problem = instantProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .meta({ format: 'date-time' });
