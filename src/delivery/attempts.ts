import type { Clock } from '../clock/index.js';
import type { Logger } from '../log.js';
import { acknowledges } from '../model/acknowledgement.js';
import type { ChangeSink } from '../model/change-sink.js';
import {
  type Attempt,
  type AttemptTrigger,
  type CancelReason,
  countedAttempts,
  MAX_ATTEMPTS,
  type NotificationRecord,
} from './notification.js';
import { type Outage, type OutageStore, outageMessage } from './outages.js';
import type { OutboxChange, OutboxState, Settled } from './outbox-state.js';
import { settledOf } from './outbox-state.js';
import type { SendResult } from './outcome.js';
import { deliveryHeaders } from './prepare.js';
import type { Sender } from './sender.js';

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

export interface AttemptsDeps {
  clock: Clock;
  sender: Sender;
  log: Logger;
  outages?: OutageStore | undefined;
  /** The outbox's state: an attempt's start and end are its changes. */
  state: OutboxState;
  changes: ChangeSink<OutboxChange>;
  /** Cancels a notification whose credential went while its attempt waited (the outbox's cancel). */
  cancel(n: NotificationRecord, reason: CancelReason, at: string): void;
}

/**
 * Sending one attempt of a notification and recording how it ended (product rule "Delivery
 * rules"): the attempt's start is kept before its request goes out, its end is one change with the
 * state it leads to. Never rejects: an error inside the emulator ends the attempt as data.
 */
export class Attempts {
  /** Set by `drain`: no attempt starts any more. */
  #stopping = false;
  readonly #running = new Map<NotificationRecord, RunningAttempt>();
  #runningChanged: (() => void) | undefined;
  readonly #store: OutboxState['store'];

  constructor(private readonly deps: AttemptsDeps) {
    this.#store = deps.state.store;
  }

  /** Whether `drain` began. */
  get stopping(): boolean {
    return this.#stopping;
  }

  /** Attempts handed to the sender and not yet ended (queued ones not counted). */
  get running(): number {
    return this.#running.size;
  }

  /** A reset: attempts still running finish unrecorded. */
  clear(): void {
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

  /**
   * One attempt of `n`, marked in flight at once, for the limiter to run when a slot frees: the task
   * resolves with the record once it finished (undefined after a reset). Run in the background with
   * `#limiter.start` (a waiting attempt is then this closure alone: decision 0159), or awaited with
   * `#limiter.run`.
   */
  task(n: NotificationRecord, trigger: AttemptTrigger): () => Promise<NotificationRecord | undefined> {
    const generation = this.#store.generation;
    this.#store.markInFlight(n);
    return () => this.send(n, generation, trigger);
  }

  /**
   * Sends one attempt of `n` (`#sendOnce`) and never rejects: an error inside the emulator while
   * making it (an outage store, a recorder, a bug) ends the attempt as data, outcome `emulator_error`,
   * instead of escaping a background promise and ending the process (decision 0120).
   */
  async send(
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
      this.deps.cancel(n, n.cancelWhenSettled, store.clockIso.of(clock.now()));
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
      this.deps.changes.emitMade(
        {
          kind: 'attempt_started',
          notification: n,
          attempt: { number, startedAt, startedAtWall, trigger, batchAt },
        },
        this.deps.state,
      );
    const result = outage ? outageResult(outage) : await sendSafely(sender, n, body);
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
    this.deps.changes.emitMade({ kind: 'attempt_ended', notification: n, attempt, settled }, this.deps.state);
  }
}

/** An attempt inside a simulated outage: nothing sent. */
function outageResult(outage: Outage): SendResult {
  return { outcome: 'simulated_outage', message: outageMessage(outage), durationMs: 0 };
}

/** Sends `n`'s request; a sender must not throw, and if one does the attempt still ends as data. */
function sendSafely(sender: Sender, n: NotificationRecord, body: Buffer): Promise<SendResult> {
  return sender
    .send({ url: n.url, headers: deliveryHeaders(n.authorization, n.filename, n.gz.length), body })
    .catch(
      (err: unknown): SendResult => ({
        outcome: 'invalid_response',
        message: `could not send: ${err instanceof Error ? err.message : String(err)}`,
        durationMs: 0,
      }),
    );
}
