/**
 * What every case works with: an emulator in this process on a manual clock, driven through the
 * same services a scenario uses (the reservation lifecycle, the delivery engine, the clock), with
 * the receiver under test as its only destination.
 */

import { HOUR_MS } from '../clock/schedule.js';
import type { NotificationBody } from '../contract/index.js';
import { type Attempt, HttpSender, type NotificationRecord } from '../delivery/index.js';
import { createEmulator, type Emulator } from '../emulator.js';
import { Rng } from '../generate/random.js';
import type { LifecycleResult } from '../reservations/index.js';
import type { ResolvedOptions } from './options.js';

/** Which Authorization the kit's notifications carry. */
export type CredentialKind = 'api-key' | 'wrong-key' | 'no-authorization';

/** One body to send, as the lifecycle emits it (`gz`: its packed bytes, made when absent). */
export type Emitted = Omit<LifecycleResult['emit'][number], 'gz'> & { gz?: Buffer };

/** Attempts the burst sends at once: above the 50 of survives-batch-burst, so none waits for a slot. */
const DELIVERY_CONCURRENCY = 64;
/** Extra wait beyond the response timeout before a settle is given up (the sender's deadline fires first). */
const SETTLE_MARGIN_MS = 10_000;

/** An attempt that reached (or tried to reach) the receiver, kept for answers-within-timeout. */
export interface MeasuredAttempt {
  caseId: string;
  record: NotificationRecord;
  attempt: Attempt;
}

export class VerifyContext {
  readonly #emulator: Emulator;
  readonly #wrongKey: string;
  /** Every real attempt of the run, by case: answers-within-timeout judges them. */
  readonly measured: MeasuredAttempt[] = [];
  #caseId = '';
  #kind: CredentialKind | undefined;

  private constructor(
    readonly options: ResolvedOptions,
    emulator: Emulator,
  ) {
    this.#emulator = emulator;
    const rng = new Rng(options.seed ^ 0x5eed);
    let key = `wrong-${rng.chars(24, '0123456789abcdef')}`;
    if (key === options.apiKey) key = `${key}x`;
    this.#wrongKey = key;
  }

  /** Builds the in-process emulator: manual clock a day back, the response timeout, the CA. */
  static async create(options: ResolvedOptions): Promise<VerifyContext> {
    const http = new HttpSender({
      timeoutMs: options.responseTimeoutMs,
      maxSockets: DELIVERY_CONCURRENCY,
      extraCaPem: options.caPems,
    });
    // A day back, on the hour: every case then runs in its own emulator hour and bodies are never
    // dated in the future (a receiver may rightly refuse those).
    const start = Math.floor((Date.now() - 24 * HOUR_MS) / HOUR_MS) * HOUR_MS;
    const emulator = createEmulator(
      {
        clock: 'manual',
        clockStart: new Date(start).toISOString(),
        responseTimeoutMs: options.responseTimeoutMs,
        allowHttp: options.allowHttp,
        seed: options.seed,
        deliveryConcurrency: DELIVERY_CONCURRENCY,
        logLevel: 'silent',
      },
      { sender: http },
    );
    return new VerifyContext(options, emulator);
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
   * its attempts for the timing figures) and moves the clock to the next full hour, so the case has
   * 55 emulator minutes before a batch runs.
   */
  async beginCase(caseId: string): Promise<void> {
    this.#harvest();
    this.#caseId = caseId;
    this.#emulator.delivery.reset();
    const nowMs = this.now().getTime();
    await this.#emulator.clock.advance({ to: new Date(Math.floor(nowMs / HOUR_MS + 1) * HOUR_MS) });
  }

  /** Keeps the last case's attempts; call once after the last case. */
  finish(): void {
    this.#harvest();
    this.#caseId = '';
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

  /** Routes bodies to the receiver and starts their first attempts; answers the notification ids. */
  dispatch(emit: readonly Emitted[], kind: CredentialKind = 'api-key'): string[] {
    this.#use(kind);
    return this.#emulator.delivery.dispatch(emit).notifications.map((n) => n.id);
  }

  /** Waits until none of these notifications has an attempt queued or running. */
  async settle(ids: readonly string[]): Promise<void> {
    await this.#emulator.delivery.outbox.waitSettled(
      { ids: new Set(ids) },
      this.options.responseTimeoutMs + SETTLE_MARGIN_MS,
    );
  }

  record(id: string): NotificationRecord {
    return this.#emulator.delivery.outbox.get(id)!;
  }

  /** Moves the clock by `ms` (the kit keeps cases clear of minute 55 unless it wants a batch). */
  async tick(ms: number): Promise<void> {
    await this.#emulator.clock.advance({ byMs: ms });
  }

  /** Moves the clock to the next minute-55 batch, which redelivers every pending notification. */
  async nextBatch(): Promise<string> {
    const result = await this.#emulator.clock.advance({ to: 'next-batch' });
    return result.batches.at(-1) ?? result.to;
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
    if (kind === 'api-key') credentials.add({ id: 'verify', apiKey: this.options.apiKey, url });
    else if (kind === 'wrong-key') credentials.add({ id: 'verify-wrong-key', apiKey: this.#wrongKey, url });
    // The apiKey is never sent: the credential omits the header (rejects-missing-authorization).
    else
      credentials.add({ id: 'verify-no-authorization', apiKey: 'unused', url }, '', {
        omitAuthorization: true,
      });
    this.#kind = kind;
  }

  async close(): Promise<void> {
    await this.#emulator.stop();
  }
}
