import type { Logger } from '../log.js';
import type { ResetChange } from '../model/change-sink.js';
import { SETTLED_MEMBERS } from '../model/notification.js';
import { BatchHistory, type BatchResult } from './batches.js';
import type { Attempt, NotificationRecord } from './notification.js';
import { NotificationStore } from './notification-store.js';

/** An attempt as it starts: what is known before the receiver answers. */
export type StartedAttempt = Pick<Attempt, 'number' | 'startedAt' | 'startedAtWall' | 'trigger' | 'batchAt'>;

/**
 * Where a notification stands after a change: its settled members (src/model/notification.ts), when
 * its last attempt ended, and a cancel waiting for its attempt in flight.
 */
export type Settled = Pick<
  NotificationRecord,
  (typeof SETTLED_MEMBERS)[number] | 'lastFinishedMs' | 'cancelWhenSettled'
>;
const SETTLED: ReadonlyArray<keyof Settled> = [...SETTLED_MEMBERS, 'lastFinishedMs', 'cancelWhenSettled'];

/** What the outbox changed (src/change-stream.ts). */
export type OutboxChange =
  | { kind: 'notification_created'; notification: NotificationRecord }
  | { kind: 'attempt_started'; notification: NotificationRecord; attempt: StartedAttempt }
  /** An attempt ended, and where it left its notification (a cancel included). */
  | { kind: 'attempt_ended'; notification: NotificationRecord; attempt: Attempt; settled: Settled }
  /** Cancelled, or to be cancelled when its attempt in flight ends undelivered (`cancelWhenSettled`, decision 0224). */
  | { kind: 'notification_cancelled'; notification: NotificationRecord; settled: Settled }
  | { kind: 'batch_started'; at: string }
  /** A batch ran, or its instant was skipped (`result.skipped`). */
  | { kind: 'batch_done'; result: BatchResult }
  /**
   * Settled notifications dropped by the retention setting (decision 0127); `dropped` is the count
   * since the start or the last reset, these included.
   */
  | { kind: 'notifications_dropped'; ids: readonly string[]; dropped: number };

/**
 * The outbox's state and its one writer, `apply` (decision 0212): the notifications, the batch
 * results, and what a crash would cut off (the attempts started and not ended, the batch running).
 * The outbox emits each change through the stream, which calls `apply` after the keeper; a restart
 * hands `apply` the changes read back, so live and replay are the same code.
 */
export class OutboxState {
  readonly store = new NotificationStore();
  readonly history: BatchHistory;
  /** Attempts started and not ended, by notification id: a crash leaves them cut off. */
  readonly started = new Map<string, StartedAttempt>();
  /** The instant of the batch running now, if one is. */
  batchRunning: string | undefined;

  constructor(log: Logger) {
    this.history = new BatchHistory(log);
  }

  apply(change: OutboxChange | ResetChange): void {
    const store = this.store;
    switch (change.kind) {
      case 'notification_created':
        store.add(change.notification);
        break;
      case 'attempt_started':
        this.started.set(change.notification.id, change.attempt);
        break;
      case 'attempt_ended': {
        this.started.delete(change.notification.id);
        const n = store.byId.get(change.notification.id);
        if (!n) break; // forgotten by a reset after the attempt started
        // A new array of exact length: 100,000 one-attempt arrays grown by push (or built by spread,
        // which V8 preallocates too: 185 bytes against 56 measured) would each carry spare slots.
        n.attempts = n.attempts.concat([change.attempt]);
        this.#settle(n, change.settled);
        break;
      }
      case 'notification_cancelled': {
        const n = store.byId.get(change.notification.id);
        if (n) this.#settle(n, change.settled);
        break;
      }
      case 'batch_started':
        this.batchRunning = change.at;
        break;
      case 'batch_done':
        this.history.remember(change.result);
        if (this.batchRunning === change.result.at) this.batchRunning = undefined;
        break;
      case 'notifications_dropped':
        store.drop(change.ids);
        for (const id of change.ids) this.started.delete(id);
        store.dropped = change.dropped;
        break;
      case 'reset':
        store.reset();
        this.history.clear();
        this.started.clear();
        this.batchRunning = undefined;
        break;
    }
  }

  /**
   * The outbox as the changes that make it (`ChangeOwner`, decision 0274): the count retention
   * dropped, each notification with its attempts so far (a shallow copy: its own fields change, its
   * attempts array is replaced, never pushed to), the attempts started, the batches done and the
   * batch running, so a crash after a snapshot still finds them cut off.
   */
  asChanges(): Iterable<OutboxChange> {
    const { dropped, byId } = this.store;
    const cut: OutboxChange[] = dropped > 0 ? [{ kind: 'notifications_dropped', ids: [], dropped }] : [];
    for (const n of byId.values()) cut.push({ kind: 'notification_created', notification: { ...n } });
    for (const [id, attempt] of this.started) {
      const notification = byId.get(id);
      if (notification) cut.push({ kind: 'attempt_started', notification, attempt });
    }
    for (const result of this.history.list()) cut.push({ kind: 'batch_done', result });
    if (this.batchRunning) cut.push({ kind: 'batch_started', at: this.batchRunning });
    return cut;
  }

  #settle(n: NotificationRecord, s: Settled): void {
    for (const k of SETTLED) (n as Record<keyof Settled, unknown>)[k] = s[k];
    if (s.state === 'pending') this.store.pending.add(n);
    else {
      n.cancelWhenSettled = undefined;
      this.store.pending.delete(n);
    }
  }
}

/** Where `n` stands now. */
export function settledOf(n: NotificationRecord): Settled {
  const s = {} as Record<keyof Settled, unknown>;
  for (const k of SETTLED) s[k] = n[k];
  return s as Settled;
}
