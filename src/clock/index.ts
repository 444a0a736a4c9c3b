import type { ChangeSink } from '../model/change-sink.js';
import { CompressedClock } from './compressed.js';
import { ManualClock } from './manual.js';
import { RealClock } from './real.js';
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
