import { writeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { pino } from 'pino';

/** The logger every component receives; a pino instance writing to stderr. */
export type Logger = pino.Logger;
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
export const LOG_FORMATS = ['pretty', 'json'] as const;
/** `json`: one JSON object a line (docker logs, CI); `pretty`: aligned columns for a person. */
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  /** Default: `pretty` when stderr is a terminal, else `json`. */
  format?: LogFormat | undefined;
  /** Emulator time, stamped on every line as `emulatorTime` (beside pino's wall-clock `time`). */
  now?: () => Date;
  /** Where lines go (default 2, stderr, so stdout stays free for command output). */
  fd?: number;
  /** Pretty format only; default: stderr is a terminal and NO_COLOR is unset. */
  color?: boolean;
}

/** The format used when none is given: pretty for a person at a terminal, JSON for machines. */
export function defaultLogFormat(fd = 2): LogFormat {
  return isatty(fd) ? 'pretty' : 'json';
}

/** A logger writing lines to stderr, JSON or pretty, each with the emulator time. */
export function createLogger(level: LogLevel = 'info', options: LoggerOptions = {}): Logger {
  const fd = options.fd ?? 2;
  const format = options.format ?? defaultLogFormat(fd);
  const { now } = options;
  const settings: pino.LoggerOptions = {
    level,
    base: { name: 'reportbo-emulator' },
    timestamp: pino.stdTimeFunctions.isoTime,
    // pino calls the mixin only for lines at an enabled level.
    ...(now ? { mixin: () => ({ emulatorTime: now().toISOString() }) } : {}),
  };
  if (format === 'json') return pino(settings, pino.destination({ fd, sync: true }));
  const color = options.color ?? (isatty(fd) && !process.env.NO_COLOR);
  // Pretty lines are for a terminal, read by a person: parsing pino's JSON line back is cheap enough.
  return pino(settings, { write: (line: string) => writeSync(fd, prettyLine(line, color)) });
}

/** A logger that writes nothing (tests, embedded use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

const LEVELS: Record<number, [label: string, color: string]> = {
  10: ['TRACE', '90'],
  20: ['DEBUG', '90'],
  30: ['INFO', '36'],
  40: ['WARN', '33'],
  50: ['ERROR', '31'],
  60: ['FATAL', '31'],
};
const KIND_WIDTH = 7; // "attempt", the longest kind

/**
 * One pino JSON line as `2026-04-27 10:00:00  INFO  attempt  n-000001 attempt 1/5 → 200 in 12 ms …`:
 * emulator time (UTC), level, kind (event, attempt, batch, token, admin, clock; blank for others),
 * message; an error's message follows. Columns are aligned; colour only when `color`.
 */
export function prettyLine(json: string, color: boolean): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const at = String(rec.emulatorTime ?? rec.time ?? '')
    .replace('T', ' ')
    .replace(/\.\d+Z$|Z$/, '');
  const [label, levelColor] = LEVELS[Number(rec.level)] ?? ['INFO', '36'];
  const kind = typeof rec.kind === 'string' ? rec.kind : '';
  let msg = String(rec.msg ?? '');
  const err = rec.err as { message?: string } | undefined;
  if (err?.message) msg += `: ${err.message}`;
  if (rec.ok === true) msg = paint('32', msg);
  else if (rec.ok === false) msg = paint('31', msg);
  return `${paint('2', at.padEnd(19))}  ${paint(levelColor, label.padEnd(5))}  ${paint('1', kind.padEnd(KIND_WIDTH))}  ${msg}\n`;
}
