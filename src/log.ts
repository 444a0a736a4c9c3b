import { isatty } from 'node:tty';
import { pino } from 'pino';
import { LineBuffer } from './log-buffer.js';

/** The logger every component receives; a pino instance writing to stderr. */
export type Logger = pino.Logger;
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';
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

/**
 * Where the log goes, in one format: pino writes through `stream`; the activity log (one line per
 * GetAccessToken call, attempt, event…) writes through `info`, which builds the same line without
 * pino's generic serialization (measured in decision 0034).
 */
export interface LogOutput {
  readonly format: LogFormat;
  /** pino's destination: takes pino's JSON lines, writes them as JSON or pretty. */
  readonly stream: { write(line: string): void };
  /** Writes one info line: `fields` (JSON values; undefined ones are left out) and a message. */
  info(fields: Readonly<Record<string, unknown>>, msg: string): void;
  /** Writes one info line from its members already serialized as JSON (no braces), ASCII only. */
  members(json: string): void;
}

/** The format used when none is given: pretty for a person at a terminal, JSON for machines. */
export function defaultLogFormat(fd = 2): LogFormat {
  return isatty(fd) ? 'pretty' : 'json';
}

const NAME = 'reportbo-emulator';
const NON_ASCII = /[\u0080-\uffff]/;
const NON_ASCII_ALL = /[\u0080-\uffff]/g;
const escapeChar = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON text with every non-ASCII character as a `\uXXXX` escape (the same JSON value). "→" in a
 * message made every buffered line two-byte text: encoding it for write(2) cost 0.7 µs a line
 * against 0.15 µs for one-byte text.
 */
export function asciiJson(json: string): string {
  return NON_ASCII.test(json) ? json.replace(NON_ASCII_ALL, escapeChar) : json;
}

/** A log output on a file descriptor (stderr by default). */
export function createLogOutput(options: LogOutputOptions = {}): LogOutput {
  const fd = options.fd ?? 2;
  const format = options.format ?? defaultLogFormat(fd);
  const out = new LineBuffer(fd);
  const wallIso = isoCache();
  const emulatorIso = isoCache();
  const now = options.now;
  if (format === 'json') {
    return {
      format,
      stream: out,
      info(fields, msg) {
        this.members(asciiJson(`${JSON.stringify(fields).slice(1, -1)},"msg":${JSON.stringify(msg)}`));
      },
      members(json) {
        const emulatorTime = now ? `"emulatorTime":"${emulatorIso(now().getTime())}",` : '';
        out.write(`{"level":30,"time":"${wallIso(Date.now())}","name":"${NAME}",${emulatorTime}${json}}\n`);
      },
    };
  }
  const color = options.color ?? (isatty(fd) && !process.env.NO_COLOR);
  return {
    format,
    // pino's own lines (start, errors) are few: parsing each back for the pretty format is cheap enough.
    stream: { write: (line: string) => out.write(prettyLine(line, color)) },
    info(fields, msg) {
      const at = now ? emulatorIso(now().getTime()) : wallIso(Date.now());
      out.write(prettyRecord({ emulatorTime: at, level: 30, kind: fields.kind, msg, ok: fields.ok }, color));
    },
    members(json) {
      out.write(prettyLine(`{"level":30,${json}}`, color));
    },
  };
}

/** A logger writing lines to stderr (or `output`), JSON or pretty, each with the emulator time. */
export function createLogger(
  level: LogLevel = 'info',
  options: LogOutputOptions & { output?: LogOutput } = {},
): Logger {
  const output = options.output ?? createLogOutput(options);
  const { now } = options;
  return pino(
    {
      level,
      base: { name: NAME },
      timestamp: pino.stdTimeFunctions.isoTime,
      // pino calls the mixin only for lines at an enabled level.
      ...(now ? { mixin: () => ({ emulatorTime: now().toISOString() }) } : {}),
    },
    output.stream,
  );
}

/** A logger that writes nothing (tests, embedded use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}

/** ISO text of an epoch-ms instant, reusing the last string while the millisecond repeats. */
function isoCache(): (ms: number) => string {
  let lastMs = Number.NaN;
  let last = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      last = new Date(ms).toISOString();
    }
    return last;
  };
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
