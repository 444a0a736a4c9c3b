import type { Clock } from '../clock/index.js';
import { type BookingStatus, type NotificationBody, packBody, type StoredBody } from '../contract/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';
import { APPLY_ONLY, type ChangeSink, RESET } from '../model/change-sink.js';
import { resending } from '../model/notification.js';
import { Attempts, type DrainResult } from './attempts.js';
import { type BatchResult, runBatch } from './batches.js';
import type { Credential } from './credential-schema.js';
import { Limiter } from './limiter.js';
import { buildNotification, type CancelReason, type NotificationRecord } from './notification.js';
import type { OutageStore } from './outages.js';
import { type OutboxChange, OutboxState, type Settled, settledOf } from './outbox-state.js';
import { authorizationOf, notificationFilename } from './prepare.js';
import type { Sender } from './sender.js';
import type { NotificationFilter } from './settle.js';

export type { DrainResult } from './attempts.js';
export type { BatchResult, NotAttemptedReason } from './batches.js';
export type { OutboxChange } from './outbox-state.js';

export interface OutboxDeps {
  clock: Clock;
  sender: Sender;
  log: Logger;
  /** At most this many attempts run at once (settings.deliveryConcurrency). */
  concurrency: number;
  /** Notifications kept; past it the oldest settled ones are dropped (settings.notificationRetention; 0: all). */
  retention?: number;
  /** Whether retention may drop an exhausted notification no resend took yet (settings.retentionDropsExhausted; decision 0211). */
  retentionDropsExhausted?: boolean;
  /**
   * Told of every change, synchronously and in order (src/change-stream.ts): the data dir keeps each
   * (decision 0080), the live stream and the info log hear them. An attempt is told when it starts,
   * before its request is sent, so a crash leaves a trace of every attempt that may have reached the
   * receiver.
   */
  changes?: ChangeSink<OutboxChange>;
  /** Simulated outages: an attempt inside one ends as `simulated_outage` without being sent. */
  outages?: OutageStore;
}

/** What the retention setting dropped so far, for the inspector (GET /__admin/notifications). */
export interface RetentionView {
  /** The setting: notifications kept (0: no limit). */
  keep: number;
  /** Notifications dropped since the start or the last reset (a data dir keeps the count). */
  dropped: number;
  /** Creation time of the oldest notification kept, when any was dropped. */
  oldestKept: string | null;
  /**
   * Exhausted notifications retention keeps because no resend or bulk retry took them yet (decision
   * 0211), once the setting binds (something was dropped or the store is full); else 0, as with
   * retentionDropsExhausted on.
   */
  exhaustedKept: number;
}

/**
 * Every notification, its attempts and its state: `pending` → `delivered` | `exhausted` | `cancelled`
 * (product rule "Delivery rules"). First attempts start when a notification is created; redeliveries
 * run in batches (src/delivery/batches.ts); the records live in a NotificationStore.
 */
export class Outbox {
  /** The notifications and batch results: what `state.apply` writes, live and at a restart. */
  readonly state: OutboxState;
  readonly #store: OutboxState['store'];
  readonly #limiter: Limiter;
  readonly #changes: ChangeSink<OutboxChange>;
  #batchRunning = false;
  /** Sending each attempt and recording its end. */
  readonly #attempts: Attempts;

  constructor(private readonly deps: OutboxDeps) {
    this.#limiter = new Limiter(deps.concurrency);
    this.state = new OutboxState(deps.log);
    this.#store = this.state.store;
    this.#changes = deps.changes ?? APPLY_ONLY;
    this.#attempts = new Attempts({
      ...deps,
      state: this.state,
      changes: this.#changes,
      cancel: (n, reason, at) => this.#cancel(n, reason, at),
    });
  }

  /**
   * Creates a notification of `body` for `credential` and starts its first attempt in the background.
   * `gz` is the body's packed bytes (contract `packBody`) when the caller has them, shared, not copied.
   */
  create(
    credential: Credential,
    bookingId: number,
    body: NotificationBody,
    gz?: StoredBody,
    /** The notification this one resends, if it is a resend. */
    original?: string,
    /** Warnings of this notification beyond its credential's (a resend's, decision 0200). */
    warnings?: readonly string[],
  ): NotificationRecord {
    const record = buildNotification(
      {
        id: this.#store.nextId(),
        credentialId: credential.id,
        bookingId,
        bookingNumber: body.Reservation.BookingNumber,
        bookingStatus: body.Reservation.BookingStatus as BookingStatus,
        state: 'pending',
        url: credential.url,
        createdAt: this.#store.clockIso.of(this.deps.clock.now()),
        filename: notificationFilename(body),
        warnings: warnings?.length ? credential.warnings.concat(warnings) : credential.warnings,
        inFlight: false,
        ...resending(original),
      },
      {
        cancelWhenSettled: undefined,
        authorization: authorizationOf(credential),
        gz: gz ?? packBody(body),
        attempts: [],
        lastFinishedMs: undefined,
      },
    );
    // Kept before it exists: a notification the data dir could not keep is never created.
    this.#changes.emit({ kind: 'notification_created', notification: record }, this.state);
    this.#applyRetention();
    this.#limiter.start(this.#attempts.task(record, 'first')); // marked in flight at once; runs in the background
    return record;
  }

  /**
   * Retry now: one attempt of a pending notification at once, outside the batch schedule, recorded
   * with trigger `manual`. It counts toward the 5 attempts (the emulator never sends a notification
   * more often than the provider would); delivered, exhausted or in-flight notifications are refused.
   */
  async retryNow(id: string): Promise<NotificationRecord> {
    const n = this.#store.byId.get(id);
    if (!n) throw new NotFoundError('notification_not_found', `No notification with id "${id}".`);
    if (n.state !== 'pending') {
      throw new ConflictError(
        'notification_not_pending',
        `Notification ${id} is ${n.state}: only a pending notification can be retried. For a new notification of the same reservation use POST /__admin/reservations/${n.bookingId}/redeliver.`,
        { accepted: ['pending'] },
      );
    }
    if (n.inFlight) {
      throw new ConflictError(
        'attempt_in_flight',
        `Notification ${id} has an attempt queued or running; retry once it finished (GET /__admin/notifications?wait=settled).`,
      );
    }
    const done = await this.#limiter.run(this.#attempts.task(n, 'manual'));
    if (!done && this.#attempts.stopping)
      throw new ConflictError(
        'emulator_stopping',
        `The emulator is stopping: notification ${id} stays pending, not retried.`,
      );
    if (!done)
      throw new NotFoundError('notification_not_found', `Notification ${id} was reset while it was retried.`);
    return done;
  }

  /** The resends of notification `id`, oldest first (decision 0200). */
  resendsOf(id: string): readonly NotificationRecord[] {
    return this.#store.resends.get(id) ?? [];
  }

  /**
   * A resend took the place of `n` (decision 0200): a pending `n` is cancelled with reason `resent`,
   * so no batch sends it again; one with an attempt queued or running is cancelled when that attempt
   * ends undelivered. A settled `n` is left as it is.
   */
  supersede(n: NotificationRecord): 'cancelled' | 'cancelled_when_attempt_ends' | 'unchanged' {
    if (n.state !== 'pending') return 'unchanged';
    if (n.inFlight) {
      this.#cancelWhenAttemptEnds(n, 'resent');
      return 'cancelled_when_attempt_ends';
    }
    this.#cancel(n, 'resent', this.#store.clockIso.of(this.deps.clock.now()));
    return 'cancelled';
  }

  /** Attempts handed to the sender and not yet ended (queued ones not counted). */
  get runningAttempts(): number {
    return this.#attempts.running;
  }

  /** What the retention setting dropped (decision 0127). */
  retention(): RetentionView {
    const dropped = this.#store.dropped;
    const keep = this.deps.retention ?? 0;
    const oldest = dropped > 0 ? this.#store.byId.values().next().value : undefined;
    let exhaustedKept = 0;
    if (keep > 0 && (dropped > 0 || this.#store.byId.size >= keep))
      for (const n of this.#store.byId.values()) if (this.#waitsForRetry(n)) exhaustedKept++;
    return { keep, dropped, oldestKept: oldest?.createdAt ?? null, exhaustedKept };
  }

  /**
   * An exhausted notification that retention keeps (decision 0211): the bulk-retry tab exists for it,
   * so it stays until a resend or bulk retry took it, or the setting retentionDropsExhausted lets it go.
   */
  #waitsForRetry(n: NotificationRecord): boolean {
    return n.state === 'exhausted' && !this.deps.retentionDropsExhausted && !this.#store.resent.has(n.id);
  }

  /**
   * Past the retention setting, drops the oldest settled notifications (delivered, exhausted,
   * cancelled and not in flight), oldest first; a pending one is never dropped, nor an exhausted one
   * no resend took yet (`#waitsForRetry`), so the store may stay above the setting while old ones
   * wait for redelivery or a bulk retry. The data dir hears of it first.
   */
  #applyRetention(): void {
    const keep = this.deps.retention ?? 0;
    const store = this.#store;
    if (keep === 0 || store.byId.size <= keep) return;
    const ids: string[] = [];
    let over = store.byId.size - keep;
    for (const n of store.byId.values()) {
      if (over === 0) break;
      if (n.state === 'pending' || n.inFlight || this.#waitsForRetry(n)) continue;
      ids.push(n.id);
      over--;
    }
    if (ids.length === 0) return;
    try {
      this.#changes.emit(
        { kind: 'notifications_dropped', ids, dropped: store.dropped + ids.length },
        this.state,
      );
    } catch {
      // The data dir could not keep it: nothing is dropped; tried again at the next notification.
    }
  }

  get(id: string): NotificationRecord | undefined {
    return this.#store.byId.get(id);
  }

  list(filter: NotificationFilter = {}): NotificationRecord[] {
    return this.#store.list(filter);
  }

  /** Resolves `true` once no matching notification has an attempt queued or running. */
  waitSettled(filter: NotificationFilter, timeoutMs: number): Promise<boolean> {
    return this.#store.waiters.wait(filter, timeoutMs);
  }

  /** Results of the most recent batches, oldest first. */
  batches(): readonly BatchResult[] {
    return this.state.history.list();
  }

  /**
   * One redelivery batch at emulator instant `at` (src/delivery/batches.ts). A batch that starts while
   * another runs is skipped and recorded, never queued, so batches neither overlap nor double up.
   */
  async runBatch(at: Date): Promise<BatchResult> {
    if (this.#batchRunning) return this.recordSkipped(at, 'previous batch still running');
    this.#batchRunning = true;
    try {
      this.#changes.emitMade({ kind: 'batch_started', at: at.toISOString() }, this.state);
      const store = this.#store;
      const result = await runBatch(
        {
          pending: store.pending,
          concurrency: this.deps.concurrency,
          generation: () => store.generation,
          markInFlight: (n) => store.markInFlight(n),
          send: (n, generation, batchAt) =>
            this.#limiter.run(() => this.#attempts.send(n, generation, 'batch', batchAt)),
        },
        at,
        this.deps.clock.nextBatchAt(at).toISOString(),
      );
      this.#changes.emitMade({ kind: 'batch_done', result }, this.state);
      return result;
    } finally {
      this.#batchRunning = false;
    }
  }

  /** Records the batch instant `at` as skipped, with the reason, and logs it. */
  recordSkipped(at: Date, reason: string): BatchResult {
    const skipped = this.state.history.skipped(at, reason);
    this.#changes.emitMade({ kind: 'batch_done', result: skipped }, this.state);
    return skipped;
  }

  /**
   * After a restart's replay (decision 0080): pending notifications without any attempt (their first
   * attempt was queued at the crash) start it.
   */
  resume(): void {
    for (const n of this.#store.pending)
      if (n.attempts.length === 0 && !n.inFlight) this.#limiter.start(this.#attempts.task(n, 'first'));
  }

  /**
   * Stops redelivering the pending notifications of a credential: each becomes `cancelled` with the
   * reason and the time; one whose attempt is running is cancelled when that attempt ends undelivered.
   * Answers how many were cancelled now.
   */
  cancelCredential(credentialId: string, reason: CancelReason): number {
    const at = this.#store.clockIso.of(this.deps.clock.now());
    let cancelled = 0;
    for (const n of this.#store.pending) {
      if (n.credentialId !== credentialId) continue;
      if (n.inFlight) {
        this.#cancelWhenAttemptEnds(n, reason);
        continue;
      }
      this.#cancel(n, reason, at);
      cancelled++;
    }
    return cancelled;
  }

  /**
   * Cancels `n` when its attempt in flight ends undelivered: kept in the data dir, so a restart after
   * a crash cancels it once it finds that attempt cut off (decision 0224).
   */
  #cancelWhenAttemptEnds(n: NotificationRecord, reason: CancelReason): void {
    const settled: Settled = { ...settledOf(n), cancelWhenSettled: reason };
    this.#changes.emitMade({ kind: 'notification_cancelled', notification: n, settled }, this.state);
  }

  /** Cancels `n` at `at` with `reason`. */
  #cancel(n: NotificationRecord, reason: CancelReason, at: string): void {
    this.deps.log.info({ id: n.id, credentialId: n.credentialId, reason }, 'notification cancelled');
    const settled: Settled = { ...settledOf(n), state: 'cancelled', cancelledAt: at, cancelReason: reason };
    this.#changes.emitMade({ kind: 'notification_cancelled', notification: n, settled }, this.state);
  }

  /** Forgets every notification and batch (`state.apply` of the reset); attempts still running finish unrecorded. */
  reset(): void {
    this.state.apply(RESET);
    this.#attempts.clear();
  }

  /**
   * Stops the outbox for a shutdown: no attempt starts any more (queued ones stay pending, not
   * attempted); attempts running get `graceMs` to end (decision 0043; `Attempts.drain`).
   */
  drain(graceMs: number): Promise<DrainResult> {
    return this.#attempts.drain(graceMs);
  }

  close(): void {
    this.#store.waiters.cancelAll();
  }
}
