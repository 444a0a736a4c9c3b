import { isatty } from 'node:tty';
import { pino } from 'pino';
import { LogDestination } from './log-destination.js';

/** What one second held beyond its log budget (src/activity/condense.ts), written as one summary line: successes only. */
export interface CondensedSecond {
  /** Calls (or attempts) not written as lines of their own, all of them successes. */
  count: number;
}

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
  /**
   * Pretty format only: a column of emulator time beside wall time, for a clock that is not the wall
   * clock (with a manual clock every line would otherwise read the same time).
   */
  emulatorTime?: boolean;
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
  const pretty: PrettyOptions = { emulatorTime: options.emulatorTime ?? false, detail: level === 'debug' };
  const stream = {
    write: (line: string) =>
      destination.write(Buffer.from(format === 'json' ? line : prettyLine(line, color, pretty))),
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
const STATUS_WIDTH = 7; // "timeout", the longest status word
/** Pretty lines fit this many columns; what does not fit is cut with … (shown whole at debug and in JSON). */
export const PRETTY_WIDTH = 120;

export interface PrettyOptions {
  /** A column of emulator time (`MM-DD HH:MM:SS`) after the wall time: for a clock that is not the wall clock. */
  emulatorTime?: boolean;
  /** Debug level: a cut message, and an attempt's URL and reason, follow on a line of their own. */
  detail?: boolean;
}

/** An attempt's outcome in the status column: its HTTP status, or a word for the failures without one. */
const OUTCOME_WORDS: Record<string, string> = {
  timeout: 'timeout',
  connect_refused: 'refused',
  dns_error: 'dns',
  tls_error: 'tls',
  reset: 'reset',
  invalid_response: 'invalid',
  interrupted: 'stopped',
  simulated_outage: 'outage',
  interrupted_by_crash: 'crashed',
};

/** One pino JSON line in the pretty format (see prettyRecord); a line that is not JSON passes as is. */
export function prettyLine(json: string, color: boolean, options: PrettyOptions = {}): string {
  try {
    return prettyRecord(JSON.parse(json) as Record<string, unknown>, color, options);
  } catch {
    return json;
  }
}

const cut = (text: string, width: number) =>
  text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;

/**
 * `12:00:03 04-27 10:00:00 INFO  attempt 200     1/5 12 ms main 4EDZPM http://…/__admin/ui#n-000001`:
 * wall time (UTC), emulator time when `options.emulatorTime`, level, kind (event, attempt, batch,
 * token, admin, clock, refused; blank for others), status (an attempt's HTTP status or failure word,
 * a call's HTTP status), message; an error's message follows. Columns are aligned and an activity line
 * fits PRETTY_WIDTH columns: an attempt line shortens its credential to keep its BookingNumber and inspector link whole,
 * other messages are cut with …; at debug the whole text follows on a line of its own. Lines of no
 * kind (start-up, errors) are written whole. Colour only
 * when `color` (green success, red failure).
 */
export function prettyRecord(
  rec: Record<string, unknown>,
  color: boolean,
  options: PrettyOptions = {},
): string {
  const paint = (code: string, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const wall = String(rec.time ?? rec.emulatorTime ?? '').slice(11, 19);
  const emulator = String(rec.emulatorTime ?? rec.time ?? '')
    .slice(5, 19)
    .replace('T', ' ');
  const [label, levelColor] = LEVELS[Number(rec.level)] ?? ['INFO', '36'];
  const kind = typeof rec.kind === 'string' ? rec.kind : '';
  const condensed = rec.condensed !== undefined;
  const status = condensed ? '' : statusOf(rec, kind);
  const times = options.emulatorTime ? `${wall.padEnd(8)} ${emulator.padEnd(14)}` : wall.padEnd(8);
  const prefix = `${paint('2', times)} ${paint(levelColor, label.padEnd(5))} ${paint('1', kind.padEnd(KIND_WIDTH))} ${status.padEnd(STATUS_WIDTH)} `;
  const room = PRETTY_WIDTH - (times.length + 1 + 6 + KIND_WIDTH + 1 + STATUS_WIDTH + 1);
  let full = String(rec.msg ?? '');
  const err = rec.err as { message?: string } | undefined;
  if (err?.message) full += `: ${err.message}`;
  let msg: string;
  let detail: string | undefined;
  if (kind === 'attempt' && !condensed && typeof rec.link === 'string') {
    // A batch's attempts follow its clock move and precede its line: only "retry now" is named.
    const trigger = rec.trigger === 'manual' ? ' now' : '';
    const head = `${rec.attempt}/5${trigger} ${rec.durationMs} ms `;
    // An attempt that exhausts its notification is a WARN line: the level says it. The line stands
    // alone among interleaved ones: the link is whole, then the BookingNumber, then the credential,
    // shortened first (decision 0201).
    const free = room - head.length - rec.link.length;
    const booking = String(rec.bookingNumber ?? '');
    const bookingPart = free - 1 >= 2 ? `${cut(booking, free - 1)} ` : '';
    const credRoom = free - bookingPart.length - 1;
    const credential = credRoom >= 2 ? `${cut(String(rec.credentialId ?? ''), credRoom)} ` : '';
    msg = `${head}${credential}${bookingPart}${rec.link}`;
    detail = `${rec.url} ${rec.reason ?? ''}`.trim();
  } else if (condensed) {
    // The summary of a condensed second, in the words of its kind, short enough for the width.
    const c = rec.condensed as CondensedSecond;
    const [okWord, route] = kind === 'token' ? ['ok', 'requests'] : ['delivered', 'notifications'];
    const text = `${c.count.toLocaleString('en-US')} more this second, all ${okWord}; GET /__admin/${route}`;
    msg = cut(text, room);
    if (msg !== text) detail = full;
  } else if (kind) {
    msg = cut(full, room);
    if (msg !== full) detail = full;
  } else {
    // Start-up, shutdown and error lines are whole: the readiness line carries the dashboard's address.
    msg = full;
  }
  if (rec.ok === true) msg = paint('32', msg);
  else if (rec.ok === false) msg = paint('31', msg);
  const more = options.detail && detail ? `${' '.repeat(PRETTY_WIDTH - room)}↳ ${detail}\n` : '';
  return `${prefix}${msg}\n${more}`;
}

function statusOf(rec: Record<string, unknown>, kind: string): string {
  if (kind === 'attempt') {
    if (typeof rec.statusCode === 'number') return String(rec.statusCode);
    return OUTCOME_WORDS[String(rec.outcome)] ?? String(rec.outcome ?? '');
  }
  if (kind === 'token' && typeof rec.httpStatus === 'number') return String(rec.httpStatus);
  if (kind === 'refused' && typeof rec.status === 'number') return String(rec.status);
  return '';
}
