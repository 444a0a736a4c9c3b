import { z } from 'zod';
import { InputError } from '../errors.js';
import { DURATION_RANGE, MAX_DURATION_MS } from './bounds.js';

const ISO = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** What a malformed duration is told: the forms accepted. */
export const DURATION_FORMS = 'expected a duration: ISO 8601 (PT1H, PT30M) or short (500ms, 2s, 5m, 1h, 1d)';
/** What a duration past MAX_DURATION_MS is told: the range accepted. */
export const DURATION_TOO_LONG = `longer than the longest accepted duration (${DURATION_RANGE})`;

/**
 * Parses a duration into milliseconds. Accepts ISO 8601 (`PT1H`, `P1DT30M`, `PT0.5S`), a short form
 * (`500ms`, `2s`, `5m`, `1h`, `1d`) or a plain number of milliseconds, up to MAX_DURATION_MS
 * (src/clock/bounds.ts).
 */
export function parseDurationMs(input: string | number, path = 'duration'): number {
  const ms = parseUnbounded(input);
  if (ms === undefined) throw durationError(String(input).trim(), path);
  if (ms > MAX_DURATION_MS)
    throw new InputError('invalid_duration', `${path}: "${String(input).trim()}" is ${DURATION_TOO_LONG}.`, {
      path,
      accepted: [DURATION_RANGE],
    });
  return ms;
}

/** Why `input` is not an accepted duration (DURATION_FORMS or DURATION_TOO_LONG), or undefined when it is. */
export function durationProblem(input: string | number): string | undefined {
  const ms = parseUnbounded(input);
  if (ms === undefined) return DURATION_FORMS;
  return ms > MAX_DURATION_MS ? DURATION_TOO_LONG : undefined;
}

function parseUnbounded(input: string | number): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input >= 0 ? input : undefined;
  const text = input.trim();
  if (/^\d+(?:\.\d+)?$/.test(text)) return Number(text);
  const short = SHORT.exec(text);
  if (short) return Number(short[1]) * UNIT_MS[short[2]!.toLowerCase()]!;
  const iso = ISO.exec(text);
  if (iso && text.toUpperCase() !== 'P' && text.toUpperCase() !== 'PT') {
    const [, d, h, m, s] = iso;
    return Math.round(
      Number(d ?? 0) * UNIT_MS.d! +
        Number(h ?? 0) * UNIT_MS.h! +
        Number(m ?? 0) * UNIT_MS.m! +
        Number(s ?? 0) * 1_000,
    );
  }
  return undefined;
}

function durationError(text: string, path: string): InputError {
  return new InputError(
    'invalid_duration',
    `${path}: "${text}" is not a duration. Use ISO 8601 (PT1H, PT30M, P1DT2H) or a short form (500ms, 2s, 5m, 1h, 1d).`,
    { path, accepted: ['PT1H', 'PT30M', 'P1D', '500ms', '2s', '5m', '1h', '1d'] },
  );
}

/** A duration as admin bodies and scenario steps take it: ISO 8601, short form or ms, up to MAX_DURATION_MS. */
export const DurationInput = z.union([z.string(), z.number().nonnegative()]).superRefine((v, ctx) => {
  const problem = durationProblem(v);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
