import { InputError } from '../errors.js';

const ISO = /^P(?:(\d+(?:\.\d+)?)D)?(?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$/i;
const SHORT = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/i;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses a duration into milliseconds. Accepts ISO 8601 (`PT1H`, `P1DT30M`, `PT0.5S`), a short form
 * (`500ms`, `2s`, `5m`, `1h`, `1d`) or a plain number of milliseconds.
 */
export function parseDurationMs(input: string | number, path = 'duration'): number {
  if (typeof input === 'number') {
    if (Number.isFinite(input) && input >= 0) return input;
    throw durationError(String(input), path);
  }
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
  throw durationError(text, path);
}

function durationError(text: string, path: string): InputError {
  return new InputError(
    'invalid_duration',
    `${path}: "${text}" is not a duration. Use ISO 8601 (PT1H, PT30M, P1DT2H) or a short form (500ms, 2s, 5m, 1h, 1d).`,
    { path, accepted: ['PT1H', 'PT30M', 'P1D', '500ms', '2s', '5m', '1h', '1d'] },
  );
}
