import { AutomaticClock } from './automatic.js';
import { HOUR_MS } from './schedule.js';
import type { ClockState } from './types.js';

/**
 * Emulator time runs `hourMs` real milliseconds per emulator hour from `start()`, beginning at the
 * `start` instant (until then it stands still there, so building the server costs no emulator time).
 * Batches fire one at a time; a batch instant that passes while the previous batch still runs is
 * skipped, never doubled, and told to the listeners as skipped with its reason (never silently).
 */
export class CompressedClock extends AutomaticClock {
  readonly mode = 'compressed' as const;
  #startMs: number;
  #realStart: number | undefined;

  constructor(
    start: Date,
    hourMs: number,
    onListenerError: (err: unknown) => void = () => {},
    realNowMs: () => number = () => performance.now(),
  ) {
    super(hourMs, onListenerError, realNowMs);
    this.#startMs = start.getTime();
  }

  now(): Date {
    if (this.#realStart === undefined) return new Date(this.#startMs);
    const elapsedReal = this.realNowMs() - this.#realStart;
    return new Date(Math.floor(this.#startMs + (elapsedReal * HOUR_MS) / this.hourMs));
  }

  /** Restarting after stop() resumes from where emulator time stood. */
  protected override resume(): void {
    this.#startMs = this.now().getTime();
    this.#realStart = this.realNowMs();
  }

  protected override pause(): void {
    this.#startMs = this.now().getTime();
    this.#realStart = undefined;
  }

  protected override skipReason(ranAt: number, tookReal: number): string {
    const took = `${Math.round(tookReal)} real ms = ${formatEmulatorSpan((tookReal * HOUR_MS) / this.hourMs)} of emulator time`;
    return `previous batch still running: the batch of ${new Date(ranAt).toISOString()} took ${took} (hourMs ${this.hourMs}); the response timeout is real time and does not scale with hourMs`;
  }

  override describe(): ClockState {
    return { ...super.describe(), hourMs: this.hourMs };
  }
}

/** `90 min`, `2 h 30 min`: an emulator-time span for messages. */
export function formatEmulatorSpan(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A response timeout that spans more emulator time than this is warned about at start. */
export const TIMEOUT_SPAN_WARN_MINUTES = 5;

/**
 * The start-up warning for a compressed clock whose real-time response timeout spans more than a
 * few emulator minutes, or undefined. The timeout does not scale with hourMs: an attempt waiting on
 * a hanging receiver lasts that long in emulator time, and a batch that outlasts an emulator hour
 * makes the batches after it be skipped.
 */
export function timeoutSpanWarning(responseTimeoutMs: number, hourMs: number): string | undefined {
  const span = (responseTimeoutMs * HOUR_MS) / hourMs;
  if (span <= TIMEOUT_SPAN_WARN_MINUTES * 60_000) return undefined;
  return (
    `the response timeout (${responseTimeoutMs} ms) is real time and does not scale with the compressed clock: ` +
    `at hourMs ${hourMs} it spans ${formatEmulatorSpan(span)} of emulator time, so an attempt to a hanging receiver ` +
    'lasts that long in emulator time' +
    (span >= HOUR_MS
      ? ' and the batches that pass meanwhile are skipped (GET /__admin/redelivery/batches lists them)'
      : '') +
    `; lower --response-timeout-ms or raise --hour-ms to keep it under ${TIMEOUT_SPAN_WARN_MINUTES} emulator minutes`
  );
}
