import { AutomaticClock } from './automatic.js';
import { HOUR_MS } from './schedule.js';

/**
 * Wall-time clock: batches at second 0 of minute 55 of every UTC hour (spec "Limits"), driven by
 * the same timer loop as the compressed clock (src/clock/automatic.ts) at one real hour per hour.
 * A minute 55 the timer reaches late (the previous batch still ran, or the machine slept) is
 * recorded as skipped, never run twice.
 */
export class RealClock extends AutomaticClock {
  readonly mode = 'real' as const;

  constructor(
    onListenerError: (err: unknown) => void = () => {},
    private readonly wallNowMs: () => number = () => Date.now(),
  ) {
    super(HOUR_MS, onListenerError, wallNowMs);
  }

  now(): Date {
    return new Date(this.wallNowMs());
  }
}
