/**
 * What every case works with: an emulator in this process on a manual clock, driven through the
 * same services a scenario uses (the reservation lifecycle, the delivery engine, the clock), with
 * the receiver under test as its only destination.
 */

import { monitorEventLoopDelay } from 'node:perf_hooks';
import { nextBatchAfter } from '../clock/schedule.js';
import type { NotificationBody, StoredBody } from '../contract/index.js';
import { type Attempt, HttpSender, type NotificationRecord } from '../delivery/index.js';
import { deliveryHeaders } from '../delivery/prepare.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { Rng } from '../generate/random.js';
import type { LifecycleResult } from '../reservations/index.js';
import { acknowledged, shortAnswer } from './evidence.js';
import { type Diagnosis, diagnose } from './experiments.js';
import { KitStalls } from './kit-stalls.js';
import type { ResolvedOptions } from './options.js';
import { CancellableSender, pause, RunBudget } from './stop.js';

import type { CredentialKind } from './trace-shape.js';

export type { CredentialKind };

/** One body to send, as the lifecycle emits it (`gz`: its packed bytes, made when absent). */
export type Emitted = Omit<LifecycleResult['emit'][number], 'gz'> & { gz?: StoredBody };

/** Slots beyond the burst's concurrency, so no burst request waits for one. */
const DELIVERY_SLACK = 14;
const MINUTE_MS = 60_000;
/**
 * The clock starts this far behind real time and each case starts at least CASE_LAG_MS behind it:
 * bodies are dated minutes ago, never in the future, and never hours or days old by accident (a
 * receiver may refuse a future date; an old one has a case of its own, accepts-old-update-date).
 * The cases' own steps add up to well under a minute.
 */
const START_LAG_MS = 5 * MINUTE_MS;
const CASE_LAG_MS = 2 * MINUTE_MS;
/** Extra wait beyond the response timeout before a settle is given up (the sender's deadline fires first). */
const SETTLE_MARGIN_MS = 10_000;
/**
 * A delivery still unanswered after this long sets off the kept-open experiment on it (experiments.ts):
 * a receiver that never answers a second request on a kept-open connection is found in seconds, and
 * its attempts are cancelled, instead of each waiting the whole response timeout.
 */
const STALL_CHECK_MS = 3_000;
/** How long the stall's experiments may take. */
const STALL_EXPERIMENT_MS = 10_000;
/**
 * Without --budget, the longest the kit waits for one answer (a third of the default response
 * timeout): a delivery unanswered that long is cancelled, not waited out, so a failing run ends in
 * seconds (decision 0239). A run given --budget waits every response timeout out, within the budget.
 */
export const HELD_MS = 10_000;
/**
 * A stall of the kit's own event loop longer than this (its process starved or paused) is time the
 * held wait does not count: the kit could not have seen the receiver's answers meanwhile.
 */
const KIT_STALL_MS = 1_000;
/** Once a delivery with your key was cut so, the run ends this long after its start (decision 0239). */
const HELD_RUN_MS = 25_000;
/**
 * Copies of a waiting delivery, each sent alone on a new connection, that must all be answered while
 * no delivery of the case is, before the waiting ones count as held outside the receiver (decision
 * 0256, `waitOutside`); the kit pauses COPY_PAUSE_MS between two, so the receiver had that long to
 * answer one of them each time.
 */
export const OUTSIDE_COPIES = 3;
const COPY_PAUSE_MS = 1_000;
/** How long one copy may take: a copy unanswered that long shows nothing. */
const COPY_TIMEOUT_MS = 5_000;

/** An attempt that reached (or tried to reach) the receiver, kept for answers-within-timeout. */
export interface MeasuredAttempt {
  caseId: string;
  record: NotificationRecord;
  attempt: Attempt;
}

/** The Authorization value of a malformed-key credential (rejects-wrong-api-key's variants). */
export function malformedAuthorization(kind: CredentialKind, options: ResolvedOptions): string {
  const key = options.apiKey;
  switch (kind) {
    case 'empty-bearer':
      return 'Bearer ';
    case 'key-prefix':
      return `Bearer ${key.slice(0, Math.floor(key.length / 2))}`;
    case 'key-other-case':
      return `Bearer ${otherCase(key)}`;
    case 'basic':
      return `Basic ${Buffer.from(`reportbo:${key}`).toString('base64')}`;
    case 'other-credential':
      return `Bearer ${options.otherApiKey ?? ''}`;
    default:
      return `Bearer ${key}`;
  }
}

/** The key with the case of every letter swapped (equal to the key when it has no letter). */
export function otherCase(key: string): string {
  return [...key].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

export class VerifyContext {
  readonly #emulator: Emulator;
  readonly #wrongKey: string;
  /** Stalls of this process's event loop over the run: the kit's own share of slow figures. */
  readonly #lag = monitorEventLoopDelay({ resolution: 20 });
  /** Stalls of this process's event loop, for the held cut's current window (`#armHeld`). */
  readonly #stalls = new KitStalls(KIT_STALL_MS);
  /** Every real attempt of the run, by case: answers-within-timeout judges them. */
  readonly measured: MeasuredAttempt[] = [];
  #caseId = '';
  #kind: CredentialKind | undefined;
  /** Fuller bodies of the same shape, by BookingID, for the experiments (an emptied body's original). */
  readonly #references = new Map<number, unknown>();
  /**
   * What the stall watch found while a delivery waited: the receiver does not answer a second request
   * on a kept-open connection (the attempts then in flight were cancelled), with the case it ran in.
   */
  stuck: { diagnosis: Diagnosis; caseId: string } | undefined;
  /**
   * A delivery with your key the stall watch cancelled because one already went unanswered for the
   * whole response timeout earlier in the run: the case it ran in is not judged.
   */
  cutShort: { caseId: string; why: string } | undefined;
  /** Deliveries cancelled after HELD_MS unanswered (decision 0239): the case, and whether one had your key. */
  readonly held: Array<{ caseId: string; mine: boolean }> = [];
  /** The stall watch's experiments, while they run. */
  #stallCheck: Promise<void> | undefined;
  /** Ends the stall watch's experiments once the deliveries they vary are cancelled as held. */
  #stallStop = new AbortController();
  /** The HELD_MS check of the settle being watched, put off while the receiver keeps answering. */
  #heldTimer: NodeJS.Timeout | undefined;
  /** Aborts when the running case ends (`beginCase`, `finish`): the stall watch's work for it stops. */
  #caseEnd = new AbortController();

  private constructor(
    readonly options: ResolvedOptions,
    emulator: Emulator,
    /** The delivery engine's sender: attempts the kit no longer needs are cancelled through it. */
    readonly sender: CancellableSender,
    /** The run's budget: its signal ends every wait of the kit and every attempt. */
    readonly budget: RunBudget,
  ) {
    this.#emulator = emulator;
    const rng = new Rng(options.seed ^ 0x5eed);
    let key = `wrong-${rng.chars(24, '0123456789abcdef')}`;
    if (key === options.apiKey) key = `${key}x`;
    this.#wrongKey = key;
    this.#lag.enable();
  }

  /** The longest stall of the kit's own event loop so far, in ms. */
  kitLagMs(): number {
    return Math.round(this.#lag.max / 1e6);
  }

  /** Builds the in-process emulator: a manual clock minutes behind real time, the response timeout, the CA. */
  static async create(options: ResolvedOptions): Promise<VerifyContext> {
    const concurrency = options.burstConcurrency + DELIVERY_SLACK;
    const budget = new RunBudget(options.budgetMs);
    const http = new CancellableSender(
      new HttpSender({
        timeoutMs: options.responseTimeoutMs,
        maxSockets: concurrency,
        extraCaPem: options.caPems,
      }),
      budget.signal,
    );
    // Minutes back, off minute 55: the kit runs its redelivery batches itself (`nextBatch`), so the
    // clock never has to cross a minute 55 (a crossing would run an extra batch mid-case).
    let start = Date.now() - START_LAG_MS;
    const minute55 = new Date(nextBatchAfter(start)).getTime();
    if (minute55 < Date.now() + MINUTE_MS) start = minute55 + 1_000;
    const emulator = createEmulator(
      {
        clock: 'manual',
        clockStart: new Date(start).toISOString(),
        responseTimeoutMs: options.responseTimeoutMs,
        allowHttp: options.allowHttp,
        seed: options.seed,
        deliveryConcurrency: concurrency,
        logLevel: 'silent',
      },
      { sender: http },
    );
    return new VerifyContext(options, emulator, http, budget);
  }

  /** The key of the `wrong-key` credential (never the real one). */
  get wrongKey(): string {
    return this.#wrongKey;
  }

  /** Emulator time now. */
  now(): Date {
    return this.#emulator.clock.now();
  }

  /**
   * Starts a case with nothing pending: forgets the previous case's notifications (after keeping
   * its attempts for the timing figures) and moves the clock up to CASE_LAG_MS behind real time.
   */
  async beginCase(caseId: string): Promise<void> {
    this.#harvest();
    this.#caseId = caseId;
    this.#endCase();
    await this.#stallCheck;
    this.#emulator.delivery.reset();
    const target = Date.now() - CASE_LAG_MS;
    if (target > this.now().getTime()) await this.#emulator.clock.advance({ to: new Date(target) });
  }

  /** The case running now (evidence of the run-wide checks names it). */
  get caseId(): string {
    return this.#caseId;
  }

  /** Attempts of the running case so far (the runner reads them to tell a receiver that died). */
  currentAttempts(): MeasuredAttempt[] {
    const out: MeasuredAttempt[] = [];
    for (const record of this.#emulator.delivery.outbox.list())
      for (const attempt of record.attempts)
        if (attempt.outcome !== 'simulated_outage') out.push({ caseId: this.#caseId, record, attempt });
    return out;
  }

  /** The notifications of the running case so far (the loss check reads them). */
  caseRecords(): NotificationRecord[] {
    return this.#emulator.delivery.outbox.list();
  }

  /** The last notification the probe showed recorded, by its place in the run (losses.ts). */
  lastRecorded: { ordinal: number; record: NotificationRecord; caseId: string } | undefined;

  /** Notes a notification the probe showed recorded (the latest one names where recording stopped). */
  sawRecorded(record: NotificationRecord): void {
    const ordinal = this.runOrdinal(record);
    if (!this.lastRecorded || ordinal > this.lastRecorded.ordinal)
      this.lastRecorded = { ordinal, record, caseId: this.#caseId };
  }

  /**
   * The place of a notification in the run: 1 for the first notification the receiver acknowledged
   * with its key, counted over every case so far, in the order they were acknowledged.
   */
  runOrdinal(record: NotificationRecord): number {
    const key = `Bearer ${this.options.apiKey}`;
    // Ids restart with each case (the outbox is reset): a notification is its case and its id.
    const seen = new Map<string, string>();
    const add = (caseId: string, r: NotificationRecord) => {
      const at = r.attempts.find((a) => acknowledged(a))?.startedAtWall;
      const id = `${caseId}/${r.id}`;
      if (r.authorization === key && at !== undefined && !seen.has(id)) seen.set(id, at);
    };
    for (const m of this.measured) add(m.caseId, m.record);
    for (const r of this.caseRecords()) add(this.#caseId, r);
    const mine = seen.get(`${this.#caseId}/${record.id}`);
    if (mine === undefined) return seen.size + 1;
    let n = 1;
    for (const at of seen.values()) if (at < mine) n++;
    return n;
  }

  /** Keeps the last case's attempts; call once after the last case. */
  finish(): void {
    this.#harvest();
    this.#caseId = '';
    this.#endCase();
  }

  /**
   * Signals the end of the running case: the stall watch's experiments, copies and the pause between
   * two copies end then (decision 0260), not a copy's timeout or a pause later.
   */
  #endCase(): void {
    this.#caseEnd.abort(new Error('the case ended'));
    this.#caseEnd = new AbortController();
  }

  /** Aborts when the running case ends. */
  get caseEnded(): AbortSignal {
    return this.#caseEnd.signal;
  }

  #harvest(): void {
    if (!this.#caseId) return;
    for (const record of this.#emulator.delivery.outbox.list())
      for (const attempt of record.attempts)
        if (attempt.outcome !== 'simulated_outage')
          this.measured.push({ caseId: this.#caseId, record, attempt });
  }

  /** Applies an Issue to the reservation store; nothing is sent yet. */
  issue(): LifecycleResult {
    return this.#emulator.reservations.apply({ type: 'Issue' });
  }

  void(bookingId: number): LifecycleResult {
    return this.#emulator.reservations.apply({ type: 'Void', bookingId });
  }

  exchange(bookingId: number): LifecycleResult {
    return this.#emulator.reservations.apply({ type: 'Exchange', bookingId });
  }

  /**
   * Sends bodies through the delivery engine to the receiver, with the chosen Authorization, and
   * waits until their first attempts ended. Answers one record per body, in order.
   */
  async send(emit: readonly Emitted[], kind: CredentialKind = 'api-key'): Promise<NotificationRecord[]> {
    const ids = this.dispatch(emit, kind);
    await this.settle(ids);
    return ids.map((id) => this.record(id));
  }

  /**
   * Like `send`, but the first attempts fail in a simulated outage (the emulator's own outage
   * mechanism, as POST /__admin/outages); the notifications stay pending for a redelivery batch.
   */
  async sendDuringOutage(emit: readonly Emitted[]): Promise<NotificationRecord[]> {
    const { outages } = this.#emulator.delivery;
    const outage = outages.add({ note: 'verify kit' });
    try {
      return await this.send(emit);
    } finally {
      outages.remove(outage.id);
    }
  }

  /** Sends (first attempts and batches) made so far: a probe reading after the last one is final. */
  sends = 0;

  /** Routes bodies to the receiver and starts their first attempts; answers the notification ids. */
  dispatch(emit: readonly Emitted[], kind: CredentialKind = 'api-key'): string[] {
    this.sends++;
    this.#use(kind);
    return this.#emulator.delivery.dispatch(emit).notifications.map((n) => n.id);
  }

  /** Waits until none of these notifications has an attempt queued or running. */
  async settle(ids: readonly string[]): Promise<void> {
    await this.#watched(
      this.#emulator.delivery.outbox.waitSettled(
        { ids: new Set(ids) },
        this.options.responseTimeoutMs + SETTLE_MARGIN_MS,
      ),
    );
  }

  /** `work`, watched: a delivery of the case still unanswered after STALL_CHECK_MS is experimented on. */
  async #watched<T>(work: Promise<T>): Promise<T> {
    if (this.options.responseTimeoutMs <= STALL_CHECK_MS) return work;
    const timer = setTimeout(() => {
      this.#stallCheck ??= this.#checkStall().finally(() => {
        this.#stallCheck = undefined;
      });
    }, STALL_CHECK_MS);
    if (this.options.budgetMs === undefined && this.options.responseTimeoutMs > HELD_MS)
      this.#armHeld(this.#heldMs());
    try {
      return await work;
    } finally {
      clearTimeout(timer);
      clearTimeout(this.#heldTimer);
      this.#heldTimer = undefined;
    }
  }

  /**
   * Checks for held deliveries in `ms`, once the I/O already come in is handled (`setImmediate`): a
   * kit whose own process was starved reads the answers and handshakes that arrived meanwhile first.
   * Time in which the kit's own event loop stalled over KIT_STALL_MS is not silence the receiver is
   * blamed for: the check waits that long again (decisions 0263, 0268), so the cut comes after
   * `heldMs` of the kit listening, however often it stalled.
   */
  #armHeld(ms: number): void {
    this.#stalls.arm();
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (this.#heldTimer !== timer) return;
          const lostMs = this.#stalls.lostSinceArm();
          if (lostMs > 0) this.#armHeld(lostMs);
          else this.#cutHeld();
        }),
      ms,
    );
    this.#heldTimer = timer;
  }

  /**
   * Cancels every delivery still unanswered after the held wait (`#heldMs`, counted from the last
   * answer or sign of life; decisions 0239, 0258, 0261): a refused credential cut
   * counts as refused, as a timeout would; a case whose delivery with your key was cut is not judged.
   */
  #cutHeld(): void {
    const records = this.caseRecords();
    const waiting = records.filter((r) => r.inFlight);
    if (waiting.length === 0 || this.budget.spent) return;
    const heldMs = this.#heldMs();
    const wait = heldCutInMs(records, Date.now(), this.sender.signOfLifeAt, heldMs);
    if (wait > 0) {
      this.#armHeld(wait);
      return;
    }
    const mine = waiting.some((r) => r.authorization === `Bearer ${this.options.apiKey}`);
    const why = `no answer after ${heldMs} ms: without --budget the kit waits that long for one answer, not the whole ${this.options.responseTimeoutMs} ms response timeout (give --budget to wait it out)`;
    this.#cut(why, mine, `a delivery with your key went unanswered for ${heldMs} ms in ${this.#caseId}`);
  }

  /** The held cut's wait: HELD_MS, or longer for a receiver seen slower (`heldMsAfter`, decision 0261). */
  #heldMs(): number {
    const answers = [...this.measured, ...this.currentAttempts()]
      .filter((m) => m.attempt.outcome === 'http_status')
      .map((m) => m.attempt.durationMs);
    return heldMsAfter(answers, this.options.responseTimeoutMs);
  }

  /**
   * Cancels the deliveries in flight as held (decisions 0239, 0256): a refused credential cut counts
   * as refused; a case whose delivery with your key was cut is not judged, and the run ends within
   * HELD_RUN_MS of its start (`armedBy` says why).
   */
  #cut(why: string, mine: boolean, armedBy: string): void {
    this.held.push({ caseId: this.#caseId, mine });
    if (mine) {
      this.cutShort = { caseId: this.#caseId, why };
      // Later deliveries with your key may wait as long: the run ends within HELD_RUN_MS.
      this.budget.arm(HELD_RUN_MS, armedBy);
    }
    this.sender.cancelRunning(why);
    this.#stallStop.abort();
    this.#stallStop = new AbortController();
  }

  /**
   * Sends copies of the waiting delivery `waiting`, each alone on a new connection, COPY_PAUSE_MS
   * apart, while deliveries of the case wait; once `waitOutside` holds (the receiver answered the
   * copies and none of the deliveries), the deliveries still waiting are cut as held (decision 0256).
   * Without --budget only, as the held cut. Never throws.
   */
  async #copiesWhileWaiting(waiting: NotificationRecord, stop: AbortSignal): Promise<void> {
    const caseId = this.#caseId;
    const copies: Copy[] = [];
    const headers = deliveryHeaders(waiting.authorization, waiting.filename, waiting.gz.bytes().length);
    while (!stop.aborted && !this.budget.spent && caseId === this.#caseId) {
      const records = this.caseRecords();
      if (!records.some((r) => r.inFlight)) return;
      const sender = new HttpSender({
        timeoutMs: Math.min(this.options.responseTimeoutMs, COPY_TIMEOUT_MS),
        maxSockets: 1,
        extraCaPem: this.options.caPems,
      });
      const sentMs = Date.now();
      try {
        const answer = await sender.send({ url: waiting.url, headers, body: waiting.gz.bytes() }, stop);
        copies.push({ sentMs, answer: answer.outcome === 'http_status' ? shortAnswer(answer) : undefined });
      } finally {
        sender.close();
      }
      if (stop.aborted || this.budget.spent || caseId !== this.#caseId) return;
      const after = this.caseRecords();
      if (waitOutside(after, copies, this.sender.signOfLifeAt)) {
        const n = after.filter((r) => r.inFlight).length;
        const answers = copies.slice(-OUTSIDE_COPIES).map((c) => c.answer);
        const why = `held outside the receiver: ${OUTSIDE_COPIES} copies of a waiting delivery, each sent alone on a new connection ${COPY_PAUSE_MS} ms apart, were answered (${answers.join('; ')}) while none of the ${n} deliveries waiting was: they wait in front of it (a listen backlog or a proxy queue that overflowed), not waited out`;
        const mine = after.some((r) => r.inFlight && r.authorization === `Bearer ${this.options.apiKey}`);
        this.#cut(why, mine, `a delivery with your key was held outside the receiver in ${caseId}`);
        return;
      }
      await pause(COPY_PAUSE_MS, stop);
    }
  }

  /**
   * Varies the oldest unanswered delivery (alone on a new connection, then twice on one kept-open
   * connection); when the receiver answers the first request of a connection and never the second,
   * every attempt in flight is cancelled (it would wait the whole response timeout) and `stuck` says
   * why. Never throws.
   */
  async #checkStall(): Promise<void> {
    if (this.stuck || this.budget.spent) return;
    const waiting = this.caseRecords().find((r) => r.inFlight);
    if (!waiting) return;
    const caseId = this.#caseId;
    const yours = `Bearer ${this.options.apiKey}`;
    const mine = waiting.authorization === yours;
    const timedOut = [...this.measured, ...this.currentAttempts()].find(
      (m) => m.attempt.outcome === 'timeout' && (m.record.authorization === yours) === mine,
    );
    // A later delivery with your key gets HELD_MS again: a receiver may catch up after a burst.
    const held = mine ? undefined : this.held.find((h) => !h.mine);
    const late = timedOut
      ? { caseId: timedOut.caseId, for: 'the whole response timeout' }
      : held && { caseId: held.caseId, for: `${HELD_MS} ms` };
    if (late) {
      // Waiting the timeout out again would only repeat what the run already showed.
      const why = `the receiver already let a delivery ${mine ? 'with your key' : 'with a credential it must refuse'} go unanswered for ${late.for} (in ${late.caseId}): not waited out again`;
      if (mine) this.cutShort = { caseId, why };
      this.sender.cancelRunning(why);
      return;
    }
    const stop = AbortSignal.any([this.#stallStop.signal, this.#caseEnd.signal]);
    const diagnosis = await diagnose(
      {
        url: waiting.url,
        gz: waiting.gz.bytes(),
        filename: waiting.filename,
        authorization: waiting.authorization,
        baseline: {
          outcome: 'timeout',
          statusCode: undefined,
          message: `no answer yet after ${STALL_CHECK_MS} ms`,
          responseBody: undefined,
          durationMs: STALL_CHECK_MS,
        },
      },
      {
        responseTimeoutMs: this.options.responseTimeoutMs,
        caPems: this.options.caPems,
        deadline: Date.now() + STALL_EXPERIMENT_MS,
        signal: AbortSignal.any([this.budget.signal, stop]),
      },
    );
    // Cut short, a variation ends unanswered: nothing is concluded from it.
    if (stop.aborted || this.budget.spent) return;
    if (caseId !== this.#caseId) return;
    if (diagnosis.kind !== 'kept-open-connection') {
      if (this.options.budgetMs === undefined && this.options.responseTimeoutMs > HELD_MS)
        await this.#copiesWhileWaiting(waiting, stop);
      return;
    }
    this.stuck = { diagnosis, caseId };
    this.sender.cancelRunning(
      `the receiver does not answer a second request on a kept-open connection (found by experiment while this attempt waited): it would have waited the whole response timeout`,
    );
  }

  record(id: string): NotificationRecord {
    return this.#emulator.delivery.outbox.get(id)!;
  }

  /** Moves the clock by `ms` (the kit keeps cases clear of minute 55 unless it wants a batch). */
  async tick(ms: number): Promise<void> {
    await this.#emulator.clock.advance({ byMs: ms });
  }

  /**
   * Runs a redelivery batch, which redelivers every pending notification at once, as the provider's
   * minute-55 batch does. The kit runs it itself a second later instead of moving the clock to minute
   * 55 (up to an hour per batch): what the receiver gets is the same, and bodies stay fresh.
   */
  async nextBatch(): Promise<string> {
    this.sends++;
    await this.tick(1_000);
    const result = await this.#watched(this.#emulator.delivery.outbox.runBatch(this.now()));
    return result.at;
  }

  /** Keeps `body` as the fuller form of the booking's notification (experiments.ts fills empty arrays from it). */
  keepReference(bookingId: number, body: unknown): void {
    this.#references.set(bookingId, body);
  }

  referenceOf(bookingId: number): unknown {
    return this.#references.get(bookingId);
  }

  /** Sends a body built outside the lifecycle (minimal and maximal bodies). */
  async sendBody(body: NotificationBody): Promise<NotificationRecord> {
    const [record] = await this.send([{ bookingId: body.Reservation.BookingID, body }]);
    return record!;
  }

  /** Makes `kind` the only credential, so every dispatched body goes to the receiver once. */
  #use(kind: CredentialKind): void {
    if (this.#kind === kind) return;
    const credentials = this.#emulator.delivery.credentials;
    for (const c of credentials.list()) credentials.remove(c.id);
    const url = this.options.receiver;
    const key = this.options.apiKey;
    const id = `verify-${kind}`;
    if (kind === 'api-key') credentials.add({ id: 'verify', apiKey: key, url });
    else if (kind === 'wrong-key') credentials.add({ id, apiKey: this.#wrongKey, url });
    // The apiKey is never sent: the credential omits the header (rejects-missing-authorization).
    else if (kind === 'no-authorization')
      credentials.add({ id, apiKey: 'unused', url }, '', { omitAuthorization: true });
    else
      credentials.add({ id, apiKey: 'unused', url }, '', {
        authorization: malformedAuthorization(kind, this.options),
      });
    this.#kind = kind;
  }

  async close(): Promise<void> {
    await this.#stallCheck;
    this.budget.close();
    this.#lag.disable();
    this.#stalls.close();
    await this.#emulator.stop();
  }
}

/** A copy of a waiting delivery sent alone on a new connection: when, and its answer (undefined: none). */
export interface Copy {
  sentMs: number;
  answer: string | undefined;
}

/**
 * Whether the deliveries still waiting among `records` wait outside the receiver (decision 0256): the
 * last OUTSIDE_COPIES `copies` of one of them, each sent alone on a new connection, were all answered,
 * and no delivery of `records` was answered from the first of those copies' sending on. A receiver
 * working through the waiting deliveries answers some of them meanwhile (one that takes requests in
 * order answers the copies after them); one that answers the copies and none of the deliveries does
 * not have them: they wait in front of it, in a listen backlog or a proxy queue.
 */
export function waitOutside(
  records: readonly NotificationRecord[],
  copies: readonly Copy[],
  signOfLifeAt = 0,
): boolean {
  const last = copies.slice(-OUTSIDE_COPIES);
  if (last.length < OUTSIDE_COPIES || last.some((c) => c.answer === undefined)) return false;
  if (!records.some((r) => r.inFlight)) return false;
  const since = last[0]!.sentMs;
  // A delivery's connection that completed its TLS handshake since then got into the receiver.
  if (signOfLifeAt >= since) return false;
  for (const r of records)
    for (const a of r.attempts)
      if (a.outcome === 'http_status' && Date.parse(a.startedAtWall) + a.durationMs >= since) return false;
  return true;
}

/**
 * How long the held cut waits for a sign of life (decision 0261): HELD_MS, or twice the slowest answer
 * the receiver gave in the run (`answersMs`), up to the response timeout. A receiver that once took
 * 8 s to answer (a disk that stalls, a loaded machine) is not called stuck after 10 s of the same.
 */
export function heldMsAfter(answersMs: readonly number[], responseTimeoutMs: number): number {
  let slowest = 0;
  for (const ms of answersMs) slowest = Math.max(slowest, ms);
  return Math.min(responseTimeoutMs, Math.max(HELD_MS, 2 * slowest));
}

/**
 * How long until the deliveries still waiting among `records` are cut (decision 0239), 0 when due:
 * `heldMs` after the receiver's last answer or sign of life. A receiver still answering is slow, not
 * stuck (a burst worked through one at a time, a loaded machine).
 */
export function heldCutInMs(
  records: readonly NotificationRecord[],
  nowMs: number,
  signOfLifeAt = 0,
  heldMs = HELD_MS,
): number {
  let last = signOfLifeAt;
  for (const r of records)
    for (const a of r.attempts)
      if (a.outcome === 'http_status') last = Math.max(last, Date.parse(a.startedAtWall) + a.durationMs);
  return Math.max(0, heldMs - (nowMs - last));
}
