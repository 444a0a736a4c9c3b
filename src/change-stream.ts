import type { FaultChange } from './auth/faults.js';
import type { JournalChange } from './auth/journal.js';
import type { TokenChange } from './auth/tokens.js';
import type { UserChange } from './auth/users.js';
import type { ClockChange } from './clock/types.js';
import type { DeliveryChange } from './delivery/service.js';
import type { Applier, ChangeSink, ResetChange } from './model/change-sink.js';
import type { ReservationChange } from './reservations/store.js';

export type { ResetChange } from './model/change-sink.js';

/**
 * Everything that changes the emulator's state, one member per kind (decision 0110). Each store
 * declares its own kinds beside its code; this union is where they meet. The data dir keeps each
 * kind as its journal record (src/model/changes.ts: a kind without its shape does not compile), and
 * the info log and the live stream are derived from them (src/activity/changes.ts), so a change
 * made by a preload, `startEmulator` or the verify kit is kept and announced like an admin call's.
 */
export type Change =
  | UserChange
  | FaultChange
  | TokenChange
  | JournalChange
  | DeliveryChange
  | ReservationChange
  | ClockChange
  | ResetChange;

/** Every kind of change, at run time: the `satisfies` does not compile while one is missing or extra. */
export const CHANGE_KINDS = Object.keys({
  user_added: 0,
  user_replaced: 0,
  user_removed: 0,
  credential_added: 0,
  credential_replaced: 0,
  credential_removed: 0,
  trust_added: 0,
  trust_removed: 0,
  fault_added: 0,
  fault_removed: 0,
  faults_cleared: 0,
  fault_used: 0,
  outage_added: 0,
  outage_removed: 0,
  outages_cleared: 0,
  outage_used: 0,
  outages_of_credential_removed: 0,
  token_issued: 0,
  token_revoked: 0,
  call_journaled: 0,
  reservation_saved: 0,
  notification_created: 0,
  attempt_started: 0,
  attempt_ended: 0,
  notification_cancelled: 0,
  batch_started: 0,
  batch_done: 0,
  notifications_dropped: 0,
  event_routed: 0,
  clock_started: 0,
  clock_advanced: 0,
  reset: 0,
} satisfies Record<Change['kind'], 0>) as Change['kind'][];

/** Someone who hears every change after it was kept and made (the activity bus). */
export type ChangeObserver = (change: Change) => void;

export interface ChangeStreamErrors {
  /** A background change (`emitMade`) could not be kept: it stays in memory, the process runs on. */
  unkept(err: unknown, change: Change): void;
  /** An observer threw; the other observers still hear the change. */
  observer(err: unknown): void;
}

/**
 * The one synchronous, ordered sink every store of an emulator is handed at construction. One keeper
 * (the data dir, when there is one) writes each change before it is made; observers hear it after.
 */
export class ChangeStream implements ChangeSink<Change> {
  #keeper: ((change: Change) => void) | undefined;
  #probe: (() => void) | undefined;
  readonly #observers = new Set<ChangeObserver>();

  constructor(private readonly errors: ChangeStreamErrors) {}

  /**
   * Sets the keeper (one at a time; undefined to stop keeping), with its probe: what
   * `ensureKeepable` runs, throwing when the keeper cannot write now.
   */
  keep(keeper: ((change: Change) => void) | undefined, probe?: () => void): void {
    this.#keeper = keeper;
    this.#probe = keeper && probe;
  }

  ensureKeepable(): void {
    this.#probe?.();
  }

  /** Registers an observer; returns a function that removes it. */
  observe(observer: ChangeObserver): () => void {
    this.#observers.add(observer);
    return () => {
      this.#observers.delete(observer);
    };
  }

  emit<C extends Change>(change: C, owner?: Applier<C>): void {
    this.#keeper?.(change); // a throw: not kept, so not made and not told
    owner?.apply(change);
    this.#tell(change);
  }

  emitMade<C extends Change>(change: C, owner?: Applier<C>): void {
    try {
      this.#keeper?.(change);
    } catch (err) {
      this.errors.unkept(err, change);
    }
    owner?.apply(change);
    this.#tell(change);
  }

  #tell(change: Change): void {
    for (const observer of this.#observers) {
      try {
        observer(change);
      } catch (err) {
        this.errors.observer(err);
      }
    }
  }
}
