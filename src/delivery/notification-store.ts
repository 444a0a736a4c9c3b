import type { NotificationRecord } from './notification.js';
import { matchesFilter, type NotificationFilter, SettleWaiters } from './settle.js';
import { Interner, IsoStrings, SharedRecords } from './shared-strings.js';

/**
 * Where the outbox keeps its notifications: every record by id, the pending and the in-flight ones,
 * the id sequence, the shared strings and the settle waiters. No delivery rule lives here.
 */
export class NotificationStore {
  readonly byId = new Map<string, NotificationRecord>();
  readonly pending = new Set<NotificationRecord>();
  readonly inFlight = new Set<NotificationRecord>();
  /** The resends of each notification resent at least once, oldest first (decision 0200). */
  readonly resends = new Map<string, NotificationRecord[]>();
  /** Ids of the notifications a resend or bulk retry took, kept when the resends are dropped. */
  readonly resent = new Set<string>();
  readonly waiters = new SettleWaiters(() => this.inFlight);
  // Emulator time and wall time change at different paces: one last-string cache each.
  readonly clockIso = new IsoStrings();
  readonly wallIso = new IsoStrings();
  readonly texts = new Interner();
  /** Receivers' answer headers: one shared record per distinct set. */
  readonly headers = new SharedRecords();
  /** Bumped by reset: an attempt queued before it finishes unrecorded. */
  generation = 0;
  /** Notifications dropped by the retention setting since the start or the last reset. */
  dropped = 0;
  #seq = 0;

  /** The id the next notification gets (`n-000001`, …): its `add` takes it. */
  nextId(): string {
    return `n-${String(this.#seq + 1).padStart(6, '0')}`;
  }

  /** Adds a notification (the outbox state's `apply`); the id sequence goes on after the highest. */
  add(n: NotificationRecord): void {
    const seq = Number(n.id.slice(2));
    if (seq > this.#seq) this.#seq = seq;
    this.byId.set(n.id, n);
    if (n.state === 'pending') this.pending.add(n);
    if (n.resentFrom !== null) {
      this.resent.add(n.resentFrom);
      const resends = this.resends.get(n.resentFrom);
      if (resends) resends.push(n);
      else this.resends.set(n.resentFrom, [n]);
    }
  }

  list(filter: NotificationFilter = {}): NotificationRecord[] {
    return [...this.byId.values()].filter((n) => matchesFilter(n, filter));
  }

  /** Forgets settled notifications (the retention setting, decision 0127). */
  drop(ids: readonly string[]): void {
    for (const id of ids) {
      const n = this.byId.get(id);
      if (!n) continue;
      this.byId.delete(id);
      this.pending.delete(n);
      this.resends.delete(id);
      if (n.resentFrom !== null) {
        const siblings = this.resends.get(n.resentFrom)?.filter((r) => r !== n);
        if (siblings?.length) this.resends.set(n.resentFrom, siblings);
        else this.resends.delete(n.resentFrom);
      }
      this.dropped++;
    }
  }

  markInFlight(n: NotificationRecord): void {
    n.inFlight = true;
    this.inFlight.add(n);
  }

  settled(n: NotificationRecord): void {
    n.inFlight = false;
    this.inFlight.delete(n);
    this.waiters.changed();
  }

  reset(): void {
    this.generation++;
    this.byId.clear();
    this.pending.clear();
    this.inFlight.clear();
    this.resends.clear();
    this.resent.clear();
    this.texts.clear();
    this.headers.clear();
    this.#seq = 0;
    this.dropped = 0;
    this.waiters.changed();
  }
}
