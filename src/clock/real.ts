import type { ScheduledTask } from 'node-cron';
import { AutomaticClock } from './automatic.js';
import { nextBatchAfter } from './schedule.js';

/** node-cron 4 takes seconds first: second 0 of minute 55 of every hour (spec "Limits"). */
export const BATCH_CRON = '0 55 * * * *';

/**
 * How long after `start()` node-cron is loaded when the next batch is further away than that (plus a
 * margin): loading it and computing its first run (an `Intl.DateTimeFormat` for the time zone) costs
 * ~15 ms, which would otherwise delay the first requests a server answers right after it listens.
 */
export const CRON_LOAD_DELAY_MS = 1_000;
const CRON_LOAD_MARGIN_MS = 5_000;

/**
 * Wall-time clock; batches on the cron expression `0 55 * * * *` in UTC, never overlapping.
 * node-cron is imported by `start()`, not with this module, so manual and compressed clocks never
 * load it.
 */
export class RealClock extends AutomaticClock {
  readonly mode = 'real' as const;
  #task: ScheduledTask | undefined;
  /** Clears the pending delayed load (and settles `scheduled`). */
  #cancelLoad: (() => void) | undefined;
  /** Bumped by `start()` and `stop()`, so a schedule that resolves after a stop is dropped. */
  #generation = 0;
  #running = false;
  /** Resolves once the batch schedule of the latest `start()` is in place (or was dropped by `stop()`). */
  scheduled: Promise<void> = Promise.resolve();

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {
    super();
  }

  now(): Date {
    return new Date();
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    const generation = ++this.#generation;
    const startedAt = Date.now();
    const untilBatchMs = nextBatchAfter(startedAt) - startedAt;
    const delayMs = untilBatchMs > CRON_LOAD_DELAY_MS + CRON_LOAD_MARGIN_MS ? CRON_LOAD_DELAY_MS : 0;
    this.scheduled = new Promise<void>((resolve) => {
      const load = () => {
        this.#cancelLoad = undefined;
        // A failed import (a broken install) is reported like a failing batch, not thrown unawaited.
        resolve(this.#schedule(generation, startedAt).catch(this.onListenerError));
      };
      if (delayMs === 0) {
        load();
        return;
      }
      const timer = setTimeout(load, delayMs);
      timer.unref();
      this.#cancelLoad = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  async #schedule(generation: number, startedAt: number): Promise<void> {
    if (generation !== this.#generation) return;
    const { default: cron } = await import('node-cron');
    if (generation !== this.#generation) return;
    const schedulingAt = Date.now();
    this.#task = cron.schedule(
      BATCH_CRON,
      async (ctx) => {
        // The batch instant is the scheduled minute 55, not the moment the timer happened to fire.
        const at = new Date(Math.floor(ctx.triggeredAt.getTime() / 60_000) * 60_000);
        await this.listeners.emit(at, this.onListenerError);
      },
      { timezone: 'Etc/UTC', noOverlap: true, name: 'reportbo-redelivery', unref: true },
    );
    // Instants node-cron does not run are recorded as skipped, never dropped silently.
    const skipped = (reason: string) => (ctx: { date: Date }) => {
      const at = new Date(Math.floor(ctx.date.getTime() / 60_000) * 60_000);
      void this.listeners.emit(at, this.onListenerError, { reason });
    };
    this.#task.on('execution:overlap', skipped('previous batch still running'));
    this.#task.on(
      'execution:missed',
      skipped('the process was too busy to start it on time (node-cron missed the instant)'),
    );
    // A minute 55 that passed while node-cron loaded is not in its schedule: run it now, once.
    const missed = nextBatchAfter(startedAt);
    if (missed <= schedulingAt) void this.listeners.emit(new Date(missed), this.onListenerError);
  }

  stop(): void {
    this.#running = false;
    this.#generation++;
    this.#cancelLoad?.();
    this.#cancelLoad = undefined;
    void this.#task?.destroy();
    this.#task = undefined;
  }
}
