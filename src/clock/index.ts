import type { ChangeSink } from '../model/change-sink.js';
import type { ClockMark } from '../model/changes.js';
import { CompressedClock } from './compressed.js';
import { ManualClock } from './manual.js';
import { RealClock } from './real.js';
import { HOUR_MS } from './schedule.js';
import type { Clock, ClockChange, ClockMode } from './types.js';

export { timeoutSpanWarning } from './compressed.js';
export { parseDurationMs } from './duration.js';
export type { AdvanceTarget, Clock, ClockChange, ClockMode } from './types.js';
export { CompressedClock, ManualClock, RealClock };

export interface ClockOptions {
  mode: ClockMode;
  /** Start instant for compressed and manual clocks (default: wall time when created). */
  start?: Date;
  /** Real ms per emulator hour for the compressed clock. */
  hourMs: number;
  onListenerError?: (err: unknown) => void;
  /** Told when a manual clock is advanced (src/change-stream.ts). */
  changes?: ChangeSink<ClockChange>;
}

/** Builds the clock of the given mode. Timers start only when `start()` is called. */
export function createClock(options: ClockOptions): Clock {
  const start = options.start ?? new Date();
  switch (options.mode) {
    case 'manual':
      return new ManualClock(start, options.onListenerError, options.changes);
    case 'compressed':
      return new CompressedClock(start, options.hourMs, options.onListenerError);
    case 'real':
      return new RealClock(options.onListenerError);
  }
}

/** Where `clock` stands, as the data dir keeps it (decision 0080). */
export function clockMark(clock: Clock): ClockMark {
  const { hourMs = HOUR_MS } = clock.describe();
  return { mode: clock.mode, emuMs: clock.now().getTime(), wallMs: Date.now(), hourMs };
}

/**
 * Where a clock of `mode` starts again from `mark`, in emulator ms: where it was left, plus, for a
 * compressed clock kept compressed, the time it ran while the emulator was down; none for a real one.
 */
export function resumeMs(mark: ClockMark, mode: ClockMode, wallNowMs: number): number | undefined {
  if (mode === 'real') return undefined;
  if (mode !== 'compressed' || mark.mode !== 'compressed') return mark.emuMs;
  return mark.emuMs + Math.max(0, Math.floor(((wallNowMs - mark.wallMs) * HOUR_MS) / mark.hourMs));
}
