import { isatty } from 'node:tty';
import { pino } from 'pino';
import { LogDestination } from './log-destination.js';

/** The logger every component receives; a pino instance writing to stderr. */
export type Logger = pino.Logger;
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const LOG_FORMATS = ['pretty', 'json'] as const;
/** `json`: one JSON object a line (docker logs, CI); `pretty`: aligned columns for a person. */
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LogOutputOptions {
  /** Default: `pretty` when the fd (stderr) is a terminal, else `json`. */
  format?: LogFormat | undefined;
  /** Emulator time, stamped on every line as `emulatorTime` (beside the wall-clock `time`). */
  now?: () => Date;
  /** Where lines go (default 2, stderr, so stdout stays free for command output). */
  fd?: number;
  /** Pretty format only; default: the fd is a terminal and NO_COLOR is unset. */
  color?: boolean;
}

/** The format used when none is given: pretty for a person at a terminal, JSON for machines. */
export function defaultLogFormat(fd = 2): LogFormat {
  return isatty(fd) ? 'pretty' : 'json';
}

const NAME = 'reportbo-emulator';
/**
 * Log text queued while stderr cannot take it (a pipe nobody reads): past this, new lines are
 * dropped instead of growing memory or blocking the server.
 */
const MAX_QUEUED_LOG_BYTES = 16 * 1024 * 1024;

/**
 * A logger writing lines to stderr (or `fd`), JSON or pretty, each with the emulator time. The one
 * write path of the log: every line (start-up, errors, the activity lines of src/activity) goes
 * through pino to one asynchronous destination (src/log-destination.ts), which gathers the lines
 * written while a write is in flight into the next one, writes what is left on exit, and drops (and
 * counts) what a failing destination refuses.
 */
export function createLogger(level: LogLevel = 'info', options: LogOutputOptions = {}): Logger {
  const fd = options.fd ?? 2;
  const format = options.format ?? defaultLogFormat(fd);
  // Buffers, not strings: measuring a pending text chunk (up to 16 KiB) with Buffer.byteLength on
  // every line was 14% of the emulator's CPU under GetAccessToken load (CPU profile, 2026-11-24: 1.7
  // JSON 10.2-10.5k -> 12.7-13.5k req/s with wrk once fixed); a Buffer's length is known.
  // Our own destination, not pino's (sonic-boom): that one has no answer to a destination that fails
  // (disk full) but to retry forever, at exit with Atomics.wait, so SIGTERM never ended the process
  // (decision 0126). Lines a failed write held are dropped and counted, and the count logged once
  // the destination takes lines again.
  const destination = new LogDestination(fd, MAX_QUEUED_LOG_BYTES, ({ dropped, cause }) =>
    logger.warn({ droppedLogLines: dropped, cause }, `${dropped} log lines were dropped: ${cause}`),
  );
  const color = options.color ?? (isatty(fd) && !process.env.NO_COLOR);
  const { now } = options;
  const stream = {
    write: (line: string) =>
      destination.write(Buffer.from(format === 'json' ? line : prettyLine(line, color))),
    flushSync: () => destination.flushSync(),
  };
  const logger = pino(
    {
      level,
      base: { name: NAME },
      timestamp: pino.stdTimeFunctions.isoTime,
      // pino calls the mixin only for lines at an enabled level.
      ...(now ? { mixin: () => ({ emulatorTime: now().toISOString() }) } : {}),
    },
    stream,
  );
  return logger;
}

/**
 * Writes what the logger still holds now (before a message written to stderr directly, or a stop);
 * a logger without a buffering destination (silent, an embedder's) has nothing to write.
 */
export function flushLog(log: Logger): void {
  const stream = (log as unknown as Record<symbol, unknown>)[pino.symbols.streamSym] as
    | { flushSync?: () => void }
    | undefined;
  try {
    stream?.flushSync?.();
  } catch {
    // Not open yet (nothing written) or already closed: nothing to write.
  }
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

/** One pino JSON line in the pretty format (see prettyRecord); a line that is not JSON passes as is. */
export function prettyLine(json: string, color: boolean): string {
  try {
    return prettyRecord(JSON.parse(json) as Record<string, unknown>, color);
  } catch {
    return json;
  }
}

/**
 * `2026-04-27 10:00:00  INFO   attempt  n-000001 attempt 1/5 → 200 in 12 ms …`: emulator time (UTC),
 * level, kind (event, attempt, batch, token, admin, clock; blank for others), message; an error's
 * message follows. Columns are aligned; colour only when `color` (green success, red failure).
 */
export function prettyRecord(rec: Record<string, unknown>, color: boolean): string {
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
