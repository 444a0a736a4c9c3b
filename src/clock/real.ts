import cron, { type ScheduledTask } from 'node-cron';
import { AutomaticClock } from './automatic.js';

/** node-cron 4 takes seconds first: second 0 of minute 55 of every hour (spec "Limits"). */
export const BATCH_CRON = '0 55 * * * *';

/** Wall-clock time; batches on the cron expression `0 55 * * * *` in UTC, never overlapping. */
export class RealClock extends AutomaticClock {
  readonly mode = 'real' as const;
  #task: ScheduledTask | undefined;

  constructor(private readonly onListenerError: (err: unknown) => void = () => {}) {
    super();
  }

  now(): Date {
    return new Date();
  }

  start(): void {
    if (this.#task) return;
    this.#task = cron.schedule(
      BATCH_CRON,
      async (ctx) => {
        // The batch instant is the scheduled minute 55, not the moment the timer happened to fire.
        const at = new Date(Math.floor(ctx.triggeredAt.getTime() / 60_000) * 60_000);
        await this.listeners.emit(at, this.onListenerError);
      },
      { timezone: 'Etc/UTC', noOverlap: true, name: 'reportbo-redelivery', unref: true },
    );
  }

  stop(): void {
    void this.#task?.destroy();
    this.#task = undefined;
  }
}
