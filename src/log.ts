import { pino } from 'pino';

/** The logger every component receives; a pino instance (JSON lines on stderr). */
export type Logger = pino.Logger;
export type LogLevel = 'silent' | 'error' | 'warn' | 'info' | 'debug';

/** A logger writing JSON lines to stderr, so stdout stays free for command output (NDJSON, schema). */
export function createLogger(level: LogLevel = 'info'): Logger {
  return pino({ level, base: { name: 'reportbo-emulator' } }, pino.destination({ fd: 2, sync: true }));
}

/** A logger that writes nothing (tests, embedded use). */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
