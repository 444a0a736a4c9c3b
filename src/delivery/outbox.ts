import type { Clock } from '../clock/index.js';
import { type BookingStatus, type NotificationBody, packBody, type StoredBody } from '../contract/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';
import { acknowledges } from '../model/acknowledgement.js';
import { APPLY_ONLY, type ChangeSink, RESET } from '../model/change-sink.js';
import { type BatchResult, runBatch } from './batches.js';
import type { Credential } from './credential-schema.js';
import { Limiter } from './limiter.js';
import {
  type Attempt,
  type AttemptTrigger,
  type CancelReason,
  countedAttempts,
  MAX_ATTEMPTS,
  type NotificationRecord,
} from './notification.js';
import { type OutageStore, outageMessage } from './outages.js';
import { type OutboxChange, OutboxState, type Settled, settledOf } from './outbox-state.js';
import type { SendResult } from './outcome.js';
import { authorizationOf, deliveryHeaders, notificationFilename } from './prepare.js';
import type { Sender } from './sender.js';
import type { NotificationFilter } from './settle.js';

export type { BatchResult, NotAttemptedReason } from './batches.js';
export type { OutboxChange, StartedAttempt } from './outbox-state.js';

/** What stopping the outbox did with the attempts that were running (decision 0043). */
export interface DrainResult {
  /** Attempts running when the stop began. */
  running: number;
  /** Of those, the ones that ended within the grace period and were recorded as they ended. */
  finished: number;
  /** The ones still running when it passed: recorded as `interrupted`, their notifications pending. */
  interrupted: number;
}

/** An attempt handed to the sender and not yet ended: what its record needs if the stop cuts it short. */
interface RunningAttempt {
  trigger: AttemptTrigger;
  batchAt: string | undefined;
  startedAt: string;
  startedAtWall: string;
  startedMs: number;
}

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
  /** Set by `drain`: no attempt starts any more. */
  #stopping = false;
  readonly #running = new Map<NotificationRecord, RunningAttempt>();
  #runningChanged: (() => void) | undefined;

  constructor(private readonly deps: OutboxDeps) {
    this.#limiter = new Limiter(deps.concurrency);
    this.state = new OutboxState(deps.log);
    this.#store = this.state.store;
    this.#changes = deps.changes ?? APPLY_ONLY;
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
    resentFrom?: string,
    /** Warnings of this notification beyond its credential's (a resend's, decision 0200). */
    warnings?: readonly string[],
  ): NotificationRecord {
    const record: NotificationRecord = {
      id: this.#store.nextId(),
      credentialId: credential.id,
      bookingId,
      bookingNumber: body.Reservation.BookingNumber,
      bookingStatus: body.Reservation.BookingStatus as BookingStatus,
      state: 'pending',
      url: credential.url,
      createdAt: this.#store.clockIso.of(this.deps.clock.now()),
      deliveredAt: null,
      exhaustedAt: null,
      cancelledAt: null,
      cancelReason: null,
      cancelWhenSettled: undefined,
      filename: notificationFilename(body),
      authorization: authorizationOf(credential),
      gz: gz ?? packBody(body),
      attempts: [],
      warnings: warnings?.length ? credential.warnings.concat(warnings) : credential.warnings,
      inFlight: false,
      lastFinishedMs: undefined,
      resentFrom: resentFrom ?? null,
    };
    // Kept before it exists: a notification the data dir could not keep is never created.
    this.#changes.emit({ kind: 'notification_created', notification: record }, this.state);
    this.#applyRetention();
    this.#limiter.start(this.#attempt(record, 'first')); // marked in flight at once; runs in the background
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
    const done = await this.#limiter.run(this.#attempt(n, 'manual'));
    if (!done && this.#stopping)
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
      n.cancelWhenSettled = 'resent';
      return 'cancelled_when_attempt_ends';
    }
    this.#cancel(n, 'resent', this.#store.clockIso.of(this.deps.clock.now()));
    return 'cancelled';
  }

  /** Attempts handed to the sender and not yet ended (queued ones not counted). */
  get runningAttempts(): number {
    return this.#running.size;
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
    return n.state === 'exhausted' && !this.deps.retentionDropsExhausted && !this.state.resent.has(n.id);
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
            this.#limiter.run(() => this.#send(n, generation, 'batch', batchAt)),
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
      if (n.attempts.length === 0 && !n.inFlight) this.#limiter.start(this.#attempt(n, 'first'));
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
        n.cancelWhenSettled = reason;
        continue;
      }
      this.#cancel(n, reason, at);
      cancelled++;
    }
    return cancelled;
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
    this.#running.clear();
  }

  /**
   * Stops the outbox for a shutdown: no attempt starts any more (queued ones stay pending, not
   * attempted); attempts running get `graceMs` to end and are recorded as they end; any still running
   * then is recorded as `interrupted` (not the receiver's failure: it does not count toward the 5
   * attempts) and its notification stays pending; its late answer is ignored (decision 0043).
   */
  async drain(graceMs: number): Promise<DrainResult> {
    this.#stopping = true;
    const running = this.#running.size;
    if (running > 0) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        this.#runningChanged = () => {
          if (this.#running.size === 0) resolve();
        };
        timer = setTimeout(resolve, graceMs);
      });
      clearTimeout(timer);
      this.#runningChanged = undefined;
    }
    const interrupted = [...this.#running];
    const finishedAt = this.#store.clockIso.of(this.deps.clock.now());
    for (const [n, r] of interrupted) {
      this.#record(n, {
        number: n.attempts.length + 1,
        startedAt: r.startedAt,
        startedAtWall: r.startedAtWall,
        finishedAt,
        durationMs: Math.round(performance.now() - r.startedMs),
        trigger: r.trigger,
        batchAt: r.batchAt,
        outcome: 'interrupted',
        statusCode: undefined,
        message: `the emulator stopped while this attempt ran (it did not end within the shutdown grace of ${graceMs} ms): not the receiver's failure; it does not count toward the ${MAX_ATTEMPTS} attempts and the notification stays pending`,
        responseBody: undefined,
        outageId: undefined,
      });
    }
    this.#running.clear();
    // Answers that still arrive belong to attempts already recorded: ignored, like after a reset.
    if (interrupted.length > 0) this.#store.generation++;
    return { running, finished: running - interrupted.length, interrupted: interrupted.length };
  }

  close(): void {
    this.#store.waiters.cancelAll();
  }

  /**
   * One attempt of `n`, marked in flight at once, for the limiter to run when a slot frees: the task
   * resolves with the record once it finished (undefined after a reset). Run in the background with
   * `#limiter.start` (a waiting attempt is then this closure alone: decision 0159), or awaited with
   * `#limiter.run`.
   */
  #attempt(n: NotificationRecord, trigger: AttemptTrigger): () => Promise<NotificationRecord | undefined> {
    const generation = this.#store.generation;
    this.#store.markInFlight(n);
    return () => this.#send(n, generation, trigger);
  }

  /**
   * Sends one attempt of `n` (`#sendOnce`) and never rejects: an error inside the emulator while
   * making it (an outage store, a recorder, a bug) ends the attempt as data, outcome `emulator_error`,
   * instead of escaping a background promise and ending the process (decision 0120).
   */
  async #send(
    n: NotificationRecord,
    generation: number,
    trigger: AttemptTrigger,
    batchAt?: string,
  ): Promise<NotificationRecord | undefined> {
    const attemptsBefore = n.attempts.length;
    try {
      return await this.#sendOnce(n, generation, trigger, batchAt);
    } catch (err) {
      const cause = err instanceof Error ? err.message : String(err);
      this.deps.log.error({ id: n.id, err }, 'delivery attempt failed inside the emulator');
      const running = this.#running.get(n);
      this.#running.delete(n);
      this.#runningChanged?.();
      if (generation !== this.#store.generation) return undefined;
      if (n.attempts.length === attemptsBefore) {
        const now = this.#store.clockIso.of(this.deps.clock.now());
        try {
          this.#record(n, {
            number: attemptsBefore + 1,
            startedAt: running?.startedAt ?? now,
            startedAtWall: running?.startedAtWall ?? this.#store.wallIso.of(new Date()),
            finishedAt: now,
            durationMs: running ? Math.round(performance.now() - running.startedMs) : 0,
            trigger,
            batchAt,
            outcome: 'emulator_error',
            statusCode: undefined,
            message: `the emulator failed while making this attempt (${cause}): not the receiver's failure; it does not count toward the ${MAX_ATTEMPTS} attempts and the notification stays pending`,
            responseBody: undefined,
            outageId: undefined,
          });
        } catch (again) {
          this.deps.log.error({ id: n.id, err: again }, 'could not record the failed attempt');
        }
      }
      this.#store.settled(n);
      return n;
    }
  }

  /**
   * Sends one attempt of `n`, marked in flight, once the limiter gave it a slot; resolves with the
   * record once it finished (undefined after a reset: `generation` is the outbox's when it was queued).
   */
  async #sendOnce(
    n: NotificationRecord,
    generation: number,
    trigger: AttemptTrigger,
    batchAt?: string,
  ): Promise<NotificationRecord | undefined> {
    const store = this.#store;
    if (generation !== store.generation) return undefined;
    // Read back from the body file without holding the event loop (decision 0153); a body that cannot
    // be read rejects, and `#send` records the attempt as `emulator_error` with the reason.
    const body = await n.gz.read();
    if (generation !== store.generation) return undefined;
    const { clock, sender } = this.deps;
    if (this.#stopping) {
      // Queued when the emulator began to stop: never sent, still pending.
      store.settled(n);
      return undefined;
    }
    if (n.cancelWhenSettled) {
      // Its credential was deleted while this attempt waited for its turn: it is never sent.
      this.#cancel(n, n.cancelWhenSettled, store.clockIso.of(clock.now()));
      store.settled(n);
      return n;
    }
    const startNow = clock.now();
    const startedAt = store.clockIso.of(startNow);
    const startedAtWall = store.wallIso.of(new Date());
    const number = n.attempts.length + 1;
    this.#running.set(n, { trigger, batchAt, startedAt, startedAtWall, startedMs: performance.now() });
    const outage = this.deps.outages?.take(n.credentialId, startNow.getTime());
    // Written before the request goes out: a crash while it is in flight leaves its trace (decision 0080).
    if (!outage)
      this.#changes.emitMade(
        {
          kind: 'attempt_started',
          notification: n,
          attempt: { number, startedAt, startedAtWall, trigger, batchAt },
        },
        this.state,
      );
    const result: SendResult = outage
      ? { outcome: 'simulated_outage', message: outageMessage(outage), durationMs: 0 }
      : await sender
          .send({
            url: n.url,
            headers: deliveryHeaders(n.authorization, n.filename, n.gz.length),
            body,
          })
          // A sender must not throw; if one does, the attempt still ends as data, not as an escape.
          .catch(
            (err: unknown): SendResult => ({
              outcome: 'invalid_response',
              message: `could not send: ${err instanceof Error ? err.message : String(err)}`,
              durationMs: 0,
            }),
          );
    if (generation !== store.generation) return undefined;
    this.#running.delete(n);
    this.#runningChanged?.();
    const finished = clock.now();
    // One literal with every member (absent ones undefined, which JSON leaves out): one object shape
    // for all attempts, all members in-object, none in an extra property array.
    const attempt: Attempt = {
      number,
      startedAt,
      startedAtWall,
      finishedAt: store.clockIso.of(finished),
      durationMs: result.durationMs,
      trigger,
      batchAt,
      outcome: result.outcome,
      statusCode: result.statusCode,
      message: store.texts.of(result.message),
      responseBody: result.responseBody === undefined ? undefined : store.texts.of(result.responseBody),
      responseHeaders:
        result.responseHeaders === undefined ? undefined : store.headers.of(result.responseHeaders),
      outageId: outage?.id,
    };
    this.#record(n, attempt, finished.getTime());
    return n;
  }

  /** Ends an attempt of `n`: where it leaves `n`, settled (no longer in flight), told (kept, applied, heard). */
  #record(n: NotificationRecord, attempt: Attempt, finishedMs = this.deps.clock.now().getTime()): void {
    const settled: Settled = { ...settledOf(n), lastFinishedMs: finishedMs };
    // Spec "1. Notification delivery (outbound from the service)" rule 2: only status exactly 200
    // acknowledges.
    if (acknowledges(attempt)) {
      settled.state = 'delivered';
      settled.deliveredAt = attempt.finishedAt;
    } else if (countedAttempts({ attempts: [...n.attempts, attempt] }) >= MAX_ATTEMPTS) {
      settled.state = 'exhausted';
      settled.exhaustedAt = attempt.finishedAt;
    } else if (n.cancelWhenSettled) {
      this.deps.log.info(
        { id: n.id, credentialId: n.credentialId, reason: n.cancelWhenSettled },
        'notification cancelled',
      );
      settled.state = 'cancelled';
      settled.cancelledAt = attempt.finishedAt;
      settled.cancelReason = n.cancelWhenSettled;
    }
    // Settled first, so what the change carries is the notification as it now stands (no longer in
    // flight): the live stream's row would otherwise say "now" for a next attempt already over.
    // Waiters wake in a later microtask, after the change below is kept and applied.
    this.#store.settled(n);
    // One change for the attempt and the state it led to (a cancel included): the data dir keeps
    // it, the state applies it, the info log and the live stream hear it.
    this.#changes.emitMade({ kind: 'attempt_ended', notification: n, attempt, settled }, this.state);
  }
}
