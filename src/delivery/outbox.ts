import type { ActivityBus } from '../activity/index.js';
import type { Clock } from '../clock/index.js';
import { type BookingStatus, type NotificationBody, packBody } from '../contract/index.js';
import { ConflictError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Credential } from './credential-schema.js';
import { Limiter } from './limiter.js';
import {
  type Attempt,
  type AttemptTrigger,
  MAX_ATTEMPTS,
  type NotificationRecord,
  toSummary,
} from './notification.js';
import type { SendResult } from './outcome.js';
import { authorizationOf, deliveryHeaders, notificationFilename } from './prepare.js';
import type { Sender } from './sender.js';
import { matchesFilter, type NotificationFilter, SettleWaiters } from './settle.js';
import { Interner, IsoStrings } from './shared-strings.js';

/** How many batch results `batches()` remembers. */
export const BATCH_HISTORY_LIMIT = 100;

/** What one redelivery batch did (docs/admin-api.md "BatchResult"). */
export interface BatchResult {
  at: string;
  attempted: number;
  delivered: number;
  failed: number;
  exhausted: number;
  /** Present when the batch was skipped because another was still running. */
  skipped?: boolean;
  reason?: string;
}

export interface OutboxDeps {
  clock: Clock;
  sender: Sender;
  log: Logger;
  /** At most this many attempts run at once (settings.deliveryConcurrency). */
  concurrency: number;
  /** Told of each notification created, attempt made and batch run (the live stream, the info log). */
  activity?: ActivityBus;
}

/**
 * Every notification, its attempts and its state: `pending` → `delivered` | `exhausted` (DESIGN
 * "Delivery rules"). First attempts start when a notification is created; redeliveries run in batches.
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
  #seq = 0;
  #generation = 0;
  #batchRunning = false;

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
    if (!done)
      throw new NotFoundError('notification_not_found', `Notification ${id} was reset while it was retried.`);
    return done;
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
   * finished before `at` is attempted once (spec "Limits": batches at minute 55). A batch that starts
   * while another runs is skipped and recorded, never queued, so batches neither overlap nor double up.
   */
  async runBatch(at: Date): Promise<BatchResult> {
    const atIso = at.toISOString();
    if (this.#batchRunning) {
      const skipped = {
        at: atIso,
        attempted: 0,
        delivered: 0,
        failed: 0,
        exhausted: 0,
        skipped: true,
        reason: 'previous batch still running',
      };
      this.deps.log.warn(skipped, 'redelivery batch skipped');
      return this.#remember(skipped);
    }
    this.#batchRunning = true;
    try {
      const atMs = at.getTime();
      const due = [...this.#pending].filter(
        (n) => !n.inFlight && n.attempts.length > 0 && (n.lastFinishedMs ?? Number.POSITIVE_INFINITY) < atMs,
      );
      const results = await Promise.all(due.map((n) => this.#attempt(n, 'batch', atIso)));
      const result: BatchResult = { at: atIso, attempted: due.length, delivered: 0, failed: 0, exhausted: 0 };
      for (const n of results) {
        if (!n) continue;
        if (n.state === 'delivered') result.delivered++;
        else result.failed++;
        if (n.state === 'exhausted') result.exhausted++;
      }
      const { activity } = this.deps;
      if (activity?.active) activity.publish({ kind: 'batch', batch: result });
      return this.#remember(result);
    } finally {
      this.#batchRunning = false;
    }
  }

  /** Forgets every notification and batch; attempts still running finish unrecorded. */
  reset(): void {
    this.#generation++;
    this.#byId.clear();
    this.#pending.clear();
    this.#inFlight.clear();
    this.#history.length = 0;
    this.#texts.clear();
    this.#seq = 0;
    this.#waiters.changed();
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
  async #attempt(
    n: NotificationRecord,
    trigger: AttemptTrigger,
    batchAt?: string,
  ): Promise<NotificationRecord | undefined> {
    const generation = this.#generation;
    n.inFlight = true;
    this.#inFlight.add(n);
    return this.#limiter.run(async () => {
      if (generation !== this.#generation) return undefined;
      const { clock, sender } = this.deps;
      const startedAt = this.#clockIso.of(clock.now());
      const startedAtWall = this.#wallIso.of(new Date());
      const result = await sender
        .send({ url: n.url, headers: deliveryHeaders(n.authorization, n.filename, n.gz.length), body: n.gz })
        // A sender must not throw; if one does, the attempt still ends as data, not as an escape.
        .catch(
          (err: unknown): SendResult => ({
            outcome: 'invalid_response',
            message: `could not send: ${err instanceof Error ? err.message : String(err)}`,
            durationMs: 0,
          }),
        );
      if (generation !== this.#generation) return undefined;
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
      };
      // A new array of exact length: 100,000 one-attempt arrays grown by push (or built by spread,
      // which V8 preallocates too: 185 bytes against 56 measured) would each carry spare slots.
      n.attempts = n.attempts.concat([attempt]);
      n.lastFinishedMs = finished.getTime();
      // Spec "Endpoints 1" rule 2: only status exactly 200 acknowledges.
      if (result.outcome === 'http_status' && result.statusCode === 200) {
        n.state = 'delivered';
        n.deliveredAt = attempt.finishedAt;
        this.#pending.delete(n);
      } else if (n.attempts.length >= MAX_ATTEMPTS) {
        n.state = 'exhausted';
        n.exhaustedAt = attempt.finishedAt;
        this.#pending.delete(n);
      }
      n.inFlight = false;
      this.#inFlight.delete(n);
      // The info log and the live stream both listen here (one line per attempt, state included).
      const { activity } = this.deps;
      if (activity?.active) activity.publish({ kind: 'attempt', notification: toSummary(n), attempt });
      this.#waiters.changed();
      return n;
    });
  }
}
