import type { NotificationRecord } from './notification.js';

/** Which notifications a waiter (or a list) is about. */
export interface NotificationFilter {
  state?: string;
  credentialId?: string;
  bookingId?: number;
  /** Only these ids (e.g. the notifications one event created). */
  ids?: ReadonlySet<string>;
}

/** Whether a notification passes a filter. */
export function matchesFilter(n: NotificationRecord, f: NotificationFilter): boolean {
  return (
    (f.state === undefined || n.state === f.state) &&
    (f.credentialId === undefined || n.credentialId === f.credentialId) &&
    (f.bookingId === undefined || n.bookingId === f.bookingId) &&
    (f.ids === undefined || f.ids.has(n.id))
  );
}

interface Waiter {
  filter: NotificationFilter;
  resolve: (settled: boolean) => void;
  timer: NodeJS.Timeout;
}

/**
 * Lets clients wait until no matching notification has an attempt queued or running, without
 * polling: waiters are re-checked when attempts finish (coalesced once per event-loop turn).
 */
export class SettleWaiters {
  readonly #waiters = new Set<Waiter>();
  #scheduled = false;

  constructor(private readonly inFlight: () => Iterable<NotificationRecord>) {}

  /** Resolves `true` once settled, or `false` when `timeoutMs` passes first. */
  wait(filter: NotificationFilter, timeoutMs: number): Promise<boolean> {
    if (this.#settled(filter)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = {
        filter,
        resolve,
        timer: setTimeout(() => {
          this.#waiters.delete(waiter);
          resolve(false);
        }, timeoutMs),
      };
      this.#waiters.add(waiter);
    });
  }

  /** Called whenever an attempt finishes or the store is reset. */
  changed(): void {
    if (this.#waiters.size === 0 || this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      for (const w of this.#waiters) {
        if (!this.#settled(w.filter)) continue;
        clearTimeout(w.timer);
        this.#waiters.delete(w);
        w.resolve(true);
      }
    });
  }

  #settled(filter: NotificationFilter): boolean {
    for (const n of this.inFlight()) if (matchesFilter(n, filter)) return false;
    return true;
  }

  /** Answers every waiter `false` (on shutdown). */
  cancelAll(): void {
    for (const w of this.#waiters) {
      clearTimeout(w.timer);
      w.resolve(false);
    }
    this.#waiters.clear();
  }
}
