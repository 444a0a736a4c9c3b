import type { z } from 'zod';
import type { ActivityBus } from '../activity/index.js';
import type { BatchResultSchema, NotAttemptedSchema } from '../admin/contract/delivery-schemas.js';
import type { Clock } from '../clock/index.js';
import { type BookingStatus, type NotificationBody, packBody } from '../contract/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Credential } from './credential-schema.js';
import { Limiter } from './limiter.js';
import {
  type Attempt,
  type AttemptTrigger,
  type CancelReason,
  countedAttempts,
  MAX_ATTEMPTS,
  type NotificationRecord,
  toSummary,
} from './notification.js';
import { type OutageStore, outageMessage } from './outages.js';
import type { SendResult } from './outcome.js';
import { authorizationOf, deliveryHeaders, notificationFilename } from './prepare.js';
import type { Sender } from './sender.js';
import { matchesFilter, type NotificationFilter, SettleWaiters } from './settle.js';
import { Interner, IsoStrings, SharedRecords } from './shared-strings.js';

/** How many batch results `batches()` remembers. */
export const BATCH_HISTORY_LIMIT = 100;

/** How many not-attempted notifications a batch result lists one by one (all are counted). */
export const NOT_ATTEMPTED_LIST_LIMIT = 100;

/** Why a batch did not attempt a pending notification (docs/delivery.md "States and redelivery"). */
export const NOT_ATTEMPTED_REASONS = ['in_flight', 'failed_at_or_after_batch', 'credential_deleted'] as const;
export type NotAttemptedReason = (typeof NOT_ATTEMPTED_REASONS)[number];

/** The pending notifications a batch did not attempt, and why (the first NOT_ATTEMPTED_LIST_LIMIT listed). */
export type NotAttempted = z.output<typeof NotAttemptedSchema>;

/** What one redelivery batch did (docs/admin-api.md "BatchResult"); `skipped` with its reason when the instant passed without one. */
export type BatchResult = z.output<typeof BatchResultSchema>;

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
  /** Told of each notification created, attempt made and batch run (the live stream, the info log). */
  activity?: ActivityBus;
  /** Simulated outages: an attempt inside one ends as `simulated_outage` without being sent. */
  outages?: OutageStore;
}

/**
 * Every notification, its attempts and its state: `pending` → `delivered` | `exhausted` | `cancelled`
 * (product rule "Delivery rules"). First attempts start when a notification is created; redeliveries
 * run in batches.
 */
export class Outbox {
  readonly #byId = new Map<string, NotificationRecord>();
  readonly #pending = new Set<NotificationRecord>();
  readonly #inFlight = new Set<NotificationRecord>();
  readonly #limiter: Limiter;
  readonly #waiters = new SettleWaiters(() => this.#inFlight);
  readonly #history: BatchResult[] = [];
  // Emulator time and wall time change at different paces: one last-string cache each.
  readonly #clockIso = new IsoStrings();
  readonly #wallIso = new IsoStrings();
  readonly #texts = new Interner();
  readonly #headers = new SharedRecords();
  #seq = 0;
  #generation = 0;
  #batchRunning = false;
  /** Set by `drain`: no attempt starts any more. */
  #stopping = false;
  readonly #running = new Map<NotificationRecord, RunningAttempt>();
  #runningChanged: (() => void) | undefined;

  constructor(private readonly deps: OutboxDeps) {
    this.#limiter = new Limiter(deps.concurrency);
  }

  /**
   * Creates a notification of `body` for `credential` and starts its first attempt in the background.
   * `gz` is the body's packed bytes (contract `packBody`) when the caller has them, shared, not copied.
   */
  create(credential: Credential, bookingId: number, body: NotificationBody, gz?: Buffer): NotificationRecord {
    const record: NotificationRecord = {
      id: `n-${String(++this.#seq).padStart(6, '0')}`,
      credentialId: credential.id,
      bookingId,
      bookingNumber: body.Reservation.BookingNumber,
      bookingStatus: body.Reservation.BookingStatus as BookingStatus,
      state: 'pending',
      url: credential.url,
      createdAt: this.#clockIso.of(this.deps.clock.now()),
      deliveredAt: null,
      exhaustedAt: null,
      cancelledAt: null,
      cancelReason: null,
      cancelWhenSettled: undefined,
      filename: notificationFilename(body),
      authorization: authorizationOf(credential),
      gz: gz ?? packBody(body),
      attempts: [],
      warnings: credential.warnings,
      inFlight: false,
      lastFinishedMs: undefined,
    };
    this.#byId.set(record.id, record);
    this.#pending.add(record);
    void this.#attempt(record, 'first'); // marks it in flight at once; the attempt runs in the background
    const { activity } = this.deps;
    if (activity?.active) activity.publish({ kind: 'notification_created', notification: toSummary(record) });
    return record;
  }

  /**
   * Retry now: one attempt of a pending notification at once, outside the batch schedule, recorded
   * with trigger `manual`. It counts toward the 5 attempts (the emulator never sends a notification
   * more often than the provider would); delivered, exhausted or in-flight notifications are refused.
   */
  async retryNow(id: string): Promise<NotificationRecord> {
    const n = this.#byId.get(id);
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
    const done = await this.#attempt(n, 'manual');
    if (!done && this.#stopping)
      throw new ConflictError(
        'emulator_stopping',
        `The emulator is stopping: notification ${id} stays pending, not retried.`,
      );
    if (!done)
      throw new NotFoundError('notification_not_found', `Notification ${id} was reset while it was retried.`);
    return done;
  }

  /** Attempts handed to the sender and not yet ended (queued ones not counted). */
  get runningAttempts(): number {
    return this.#running.size;
  }

  get(id: string): NotificationRecord | undefined {
    return this.#byId.get(id);
  }

  list(filter: NotificationFilter = {}): NotificationRecord[] {
    return [...this.#byId.values()].filter((n) => matchesFilter(n, filter));
  }

  /** Resolves `true` once no matching notification has an attempt queued or running. */
  waitSettled(filter: NotificationFilter, timeoutMs: number): Promise<boolean> {
    return this.#waiters.wait(filter, timeoutMs);
  }

  /** Results of the most recent batches, oldest first. */
  batches(): readonly BatchResult[] {
    return this.#history;
  }

  /**
   * One redelivery batch at emulator instant `at`: every pending notification whose last attempt
   * finished before `at` is attempted once (spec "Limits": batches at minute 55); the others are listed
   * with the reason. A batch that starts while another runs is skipped and recorded, never queued, so
   * batches neither overlap nor double up.
   */
  async runBatch(at: Date): Promise<BatchResult> {
    if (this.#batchRunning) return this.recordSkipped(at, 'previous batch still running');
    this.#batchRunning = true;
    try {
      const atIso = at.toISOString();
      const atMs = at.getTime();
      const due: NotificationRecord[] = [];
      const left = new NotAttemptedList(atIso, this.deps.clock.nextBatchAt(at).toISOString());
      for (const n of this.#pending) {
        if (n.inFlight) left.add(n, n.cancelWhenSettled ? 'credential_deleted' : 'in_flight');
        else if (n.attempts.length > 0 && (n.lastFinishedMs ?? Number.POSITIVE_INFINITY) < atMs) due.push(n);
        else left.add(n, 'failed_at_or_after_batch');
      }
      const result: BatchResult = { at: atIso, attempted: due.length, delivered: 0, failed: 0, exhausted: 0 };
      const generation = this.#generation;
      // Every due notification is in flight from now (waiters and the admin API see it queued), but
      // only `concurrency` runners walk the list: queueing all of them in the limiter at once held
      // a closure and a few promises per notification for the whole batch (100,000 due, CLI: 4.0 s
      // of CPU and a 493 MiB peak RSS, against 3.3 s and 430 MiB with runners).
      for (const n of due) this.#markInFlight(n);
      let next = 0;
      const runner = async (): Promise<void> => {
        while (next < due.length && generation === this.#generation) {
          const n = due[next++]!;
          if (!(await this.#limiter.run(() => this.#send(n, generation, 'batch', atIso)))) continue;
          if (n.state === 'delivered') result.delivered++;
          else result.failed++;
          if (n.state === 'exhausted') result.exhausted++;
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.deps.concurrency, due.length) }, runner));
      if (left.count > 0) result.notAttempted = left.result();
      // The info log (non-empty batches) and the live stream (every batch) listen here.
      const { activity } = this.deps;
      if (activity?.active) activity.publish({ kind: 'batch', batch: result });
      return this.#remember(result);
    } finally {
      this.#batchRunning = false;
    }
  }

  /** Records the batch instant `at` as skipped, with the reason, and logs it. */
  recordSkipped(at: Date, reason: string): BatchResult {
    const skipped: BatchResult = {
      at: at.toISOString(),
      attempted: 0,
      delivered: 0,
      failed: 0,
      exhausted: 0,
      skipped: true,
      reason,
    };
    this.deps.log.warn(skipped, 'redelivery batch skipped');
    const { activity } = this.deps;
    if (activity?.active) activity.publish({ kind: 'batch', batch: skipped });
    return this.#remember(skipped);
  }

  /**
   * Stops redelivering the pending notifications of a credential: each becomes `cancelled` with the
   * reason and the time; one whose attempt is running is cancelled when that attempt ends undelivered.
   * Answers how many were cancelled now.
   */
  cancelCredential(credentialId: string, reason: CancelReason): number {
    const at = this.#clockIso.of(this.deps.clock.now());
    let cancelled = 0;
    for (const n of this.#pending) {
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

  #cancel(n: NotificationRecord, reason: CancelReason, at: string): void {
    n.state = 'cancelled';
    n.cancelledAt = at;
    n.cancelReason = reason;
    n.cancelWhenSettled = undefined;
    this.#pending.delete(n);
    this.deps.log.info({ id: n.id, credentialId: n.credentialId, reason }, 'notification cancelled');
  }

  /** Forgets every notification and batch; attempts still running finish unrecorded. */
  reset(): void {
    this.#generation++;
    this.#byId.clear();
    this.#pending.clear();
    this.#inFlight.clear();
    this.#running.clear();
    this.#history.length = 0;
    this.#texts.clear();
    this.#headers.clear();
    this.#seq = 0;
    this.#waiters.changed();
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
    const finishedAt = this.#clockIso.of(this.deps.clock.now());
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
    if (interrupted.length > 0) this.#generation++;
    return { running, finished: running - interrupted.length, interrupted: interrupted.length };
  }

  close(): void {
    this.#waiters.cancelAll();
  }

  #remember(result: BatchResult): BatchResult {
    this.#history.push(result);
    if (this.#history.length > BATCH_HISTORY_LIMIT) this.#history.shift();
    return result;
  }

  /** Queues one attempt; resolves with the record once it finished (undefined after a reset). */
  #attempt(n: NotificationRecord, trigger: AttemptTrigger): Promise<NotificationRecord | undefined> {
    const generation = this.#generation;
    this.#markInFlight(n);
    return this.#limiter.run(() => this.#send(n, generation, trigger));
  }

  #markInFlight(n: NotificationRecord): void {
    n.inFlight = true;
    this.#inFlight.add(n);
  }

  /**
   * Sends one attempt of `n`, marked in flight, once the limiter gave it a slot; resolves with the
   * record once it finished (undefined after a reset: `generation` is the outbox's when it was queued).
   */
  async #send(
    n: NotificationRecord,
    generation: number,
    trigger: AttemptTrigger,
    batchAt?: string,
  ): Promise<NotificationRecord | undefined> {
    if (generation !== this.#generation) return undefined;
    const { clock, sender } = this.deps;
    if (this.#stopping) {
      // Queued when the emulator began to stop: never sent, still pending.
      this.#settled(n);
      return undefined;
    }
    if (n.cancelWhenSettled) {
      // Its credential was deleted while this attempt waited for its turn: it is never sent.
      this.#cancel(n, n.cancelWhenSettled, this.#clockIso.of(clock.now()));
      this.#settled(n);
      return n;
    }
    const startNow = clock.now();
    const startedAt = this.#clockIso.of(startNow);
    const startedAtWall = this.#wallIso.of(new Date());
    this.#running.set(n, { trigger, batchAt, startedAt, startedAtWall, startedMs: performance.now() });
    const outage = this.deps.outages?.take(n.credentialId, startNow.getTime());
    const result: SendResult = outage
      ? { outcome: 'simulated_outage', message: outageMessage(outage), durationMs: 0 }
      : await sender
          .send({
            url: n.url,
            headers: deliveryHeaders(n.authorization, n.filename, n.gz.length),
            body: n.gz,
          })
          // A sender must not throw; if one does, the attempt still ends as data, not as an escape.
          .catch(
            (err: unknown): SendResult => ({
              outcome: 'invalid_response',
              message: `could not send: ${err instanceof Error ? err.message : String(err)}`,
              durationMs: 0,
            }),
          );
    if (generation !== this.#generation) return undefined;
    this.#running.delete(n);
    this.#runningChanged?.();
    const finished = clock.now();
    // One literal with every member (absent ones undefined, which JSON leaves out): one object shape
    // for all attempts, all members in-object, none in an extra property array.
    const attempt: Attempt = {
      number: n.attempts.length + 1,
      startedAt,
      startedAtWall,
      finishedAt: this.#clockIso.of(finished),
      durationMs: result.durationMs,
      trigger,
      batchAt,
      outcome: result.outcome,
      statusCode: result.statusCode,
      message: this.#texts.of(result.message),
      responseBody: result.responseBody === undefined ? undefined : this.#texts.of(result.responseBody),
      responseHeaders:
        result.responseHeaders === undefined ? undefined : this.#headers.of(result.responseHeaders),
      outageId: outage?.id,
    };
    this.#record(n, attempt, finished.getTime());
    return n;
  }

  /** Adds an ended attempt to `n`, moves its state on, settles it and tells the listeners. */
  #record(n: NotificationRecord, attempt: Attempt, finishedMs = this.deps.clock.now().getTime()): void {
    // A new array of exact length: 100,000 one-attempt arrays grown by push (or built by spread,
    // which V8 preallocates too: 185 bytes against 56 measured) would each carry spare slots.
    n.attempts = n.attempts.concat([attempt]);
    n.lastFinishedMs = finishedMs;
    // Spec "1. Notification delivery (outbound from the service)" rule 2: only status exactly 200
    // acknowledges.
    if (attempt.outcome === 'http_status' && attempt.statusCode === 200) {
      n.state = 'delivered';
      n.deliveredAt = attempt.finishedAt;
      this.#pending.delete(n);
    } else if (countedAttempts(n) >= MAX_ATTEMPTS) {
      n.state = 'exhausted';
      n.exhaustedAt = attempt.finishedAt;
      this.#pending.delete(n);
    } else if (n.cancelWhenSettled) {
      this.#cancel(n, n.cancelWhenSettled, attempt.finishedAt);
    }
    this.#settled(n);
    // The info log and the live stream both listen here (one line per attempt, state included).
    const { activity } = this.deps;
    if (activity?.active) activity.publish({ kind: 'attempt', notification: toSummary(n), attempt });
  }

  #settled(n: NotificationRecord): void {
    n.inFlight = false;
    this.#inFlight.delete(n);
    this.#waiters.changed();
  }
}

/** Collects the notifications a batch leaves out: counted all, listed up to the limit with a message. */
class NotAttemptedList {
  count = 0;
  readonly #byReason: Partial<Record<NotAttemptedReason, number>> = {};
  readonly #listed: NotAttempted['notifications'] = [];

  constructor(
    private readonly atIso: string,
    private readonly nextBatchIso: string,
  ) {}

  add(n: NotificationRecord, reason: NotAttemptedReason): void {
    this.count++;
    this.#byReason[reason] = (this.#byReason[reason] ?? 0) + 1;
    if (this.#listed.length < NOT_ATTEMPTED_LIST_LIMIT) {
      this.#listed.push({ id: n.id, reason, message: this.#message(n, reason) });
    }
  }

  #message(n: NotificationRecord, reason: NotAttemptedReason): string {
    const last = n.attempts[n.attempts.length - 1];
    switch (reason) {
      case 'in_flight':
        return last === undefined
          ? 'its first attempt is queued or running; a notification is never sent twice at once'
          : `attempt ${last.number + 1} is queued or running; a notification is never sent twice at once`;
      case 'credential_deleted':
        return 'its credential was deleted; it is cancelled when its running attempt ends undelivered';
      case 'failed_at_or_after_batch':
        return (
          `its last attempt ended at ${last?.finishedAt ?? 'an unknown time'}, not before this batch's instant ${this.atIso}: ` +
          `a batch retries attempts that ended before it (spec "Limits"); the next batch, ${this.nextBatchIso}, retries it ` +
          '(manual clock: POST /__admin/clock/advance {"to":"next-batch"})'
        );
    }
  }

  result(): NotAttempted {
    return { count: this.count, byReason: this.#byReason, notifications: this.#listed };
  }
}
