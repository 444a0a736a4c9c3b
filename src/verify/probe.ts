/**
 * The `--probe` client: asks the receiver what it recorded for a booking. A GET to the template
 * (with {BookingID} or {BookingNumber} filled in) answers 200 with `{"BookingStatus": …}` (and
 * optionally the stored content members, `ProbeContent`), or 404 for a booking the receiver does not
 * know (docs/verify.md "--probe"). A receiver that records asynchronously lags: `until` asks again
 * until the answer is right or the deadline passes.
 */
import { Agent, request } from 'undici';
import { senderTlsContext } from '../delivery/origin-pools.js';
import type { ResolvedOptions } from './options.js';
import { pause as wait } from './stop.js';
import { probeReading } from './trace.js';
import type { Expectation, ProbeAnswer, ProbeReading } from './trace-shape.js';
import type { Evidence } from './types.js';

export type { ProbeAnswer } from './trace-shape.js';

/** First pause between two asks of `until`; it doubles up to POLL_MAX_MS. */
const POLL_FIRST_MS = 20;
const POLL_MAX_MS = 400;
/** How long a check is asked again once the receiver showed it is not recording. */
const QUICK_MS = 150;
/**
 * A sentinel that is not recorded although the receiver's lag is known (an earlier sentinel read
 * right after `lag` ms) and nothing else of the case got recorded meanwhile is given up after
 * QUIET_FACTOR × lag + QUIET_MIN_MS of no progress, not the whole deadline (docs/verify.md "Speed").
 */
const QUIET_FACTOR = 3;
const QUIET_MIN_MS = 5_000;

/** Stops `until` early when nothing progresses: `progress` answers true when the receiver recorded something new. */
export interface QuietWatch {
  quietMs: number;
  progress: () => Promise<boolean>;
  /**
   * Why waiting on is pointless although the receiver progresses (the pace it showed cannot reach
   * the last booking within the deadline; decision 0259), or undefined: asked after `progress`.
   */
  behind?: (waitedMs: number, leftMs: number, deadlineMs: number) => string | undefined;
}

const SHOWN_CHARS = 200;
/** Probe GETs in flight at once when many bookings are read together. */
const PARALLEL_ASKS = 8;

export class Probe {
  readonly #agent: Agent;
  /**
   * False once the receiver showed it is not recording (a sentinel refused, or not recorded within
   * the deadline): later checks then ask with a short grace (QUICK_MS) instead of their full deadline,
   * so a receiver that refuses everything or has stalled fails fast (docs/verify.md "Speed"). Only a
   * sentinel sets it (`drain`): a booking recorded before a stall proves nothing about recording now.
   */
  recording = true;
  /** The longest a sentinel took to read right so far (the receiver's lag), once one did. */
  #lagMs: number | undefined;
  /**
   * How many sends the run had made (the runner sets it to the context's count): a reading after a
   * sentinel read right, with nothing sent since, is final (`settled`).
   */
  sentCount: () => number = () => 0;
  #settledAt: number | undefined;
  /** Why a wait of the running case was given up on the receiver's pace (`QuietWatch.behind`), if one was. */
  gaveUp: string | undefined;
  /** The readings of the running case (the report's trace), timed from its start. */
  #readings: ProbeReading[] = [];
  #caseStartMs = Date.now();

  /** The probe `options` name (`--probe`), or none; `stop` (the run's budget) ends every wait. */
  static of(options: ResolvedOptions, stop?: AbortSignal): Probe | undefined {
    if (!options.probe) return undefined;
    return new Probe(
      options.probe,
      options.apiKey,
      options.caPems,
      options.responseTimeoutMs,
      options.probeDeadlineMs,
      stop,
    );
  }

  constructor(
    private readonly template: string,
    private readonly apiKey: string,
    caPems: readonly string[],
    private readonly timeoutMs: number,
    /** How long `until` asks again (`--probe-deadline-ms`). */
    readonly deadlineMs = 10_000,
    /** Ends every wait at once (a reading cut short is answered as it stood). */
    private readonly stop?: AbortSignal,
  ) {
    this.#agent = new Agent({
      // The sender's trust, one context for every reading; none for a plain http:// probe.
      connect: {
        ...(/^https:/i.test(template) ? { secureContext: senderTlsContext(caPems) } : {}),
        timeout: timeoutMs,
      },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
  }

  /** Whether the template names bookings by BookingID (else by BookingNumber). */
  get byBookingId(): boolean {
    return this.template.includes('{BookingID}');
  }

  urlFor(booking: { bookingId: number; bookingNumber: string }): string {
    return this.template
      .replaceAll('{BookingID}', encodeURIComponent(String(booking.bookingId)))
      .replaceAll('{BookingNumber}', encodeURIComponent(booking.bookingNumber));
  }

  /**
   * A sentinel read right: the receiver's queue is past everything sent so far, so until the next
   * send every booking reads its final state; a check that reads wrong then is not asked again for the
   * whole deadline, only for the receiver's lag and a short grace (docs/verify.md "--probe").
   */
  settled(): void {
    this.#settledAt = this.sentCount();
  }

  /** Notes how long a sentinel took to read right: the receiver's lag, which later quiet watches scale with. */
  learnLag(waitedMs: number, ahead = 0): void {
    this.#lagMs = Math.max(this.#lagMs ?? 0, waitedMs);
    this.#lagAhead = Math.max(this.#lagAhead, ahead);
  }

  /** The most bookings not yet recorded a sentinel read right behind (its lag covered them). */
  #lagAhead = 0;

  /**
   * How long a sentinel may see no progress before it is given up, once the receiver's lag is known;
   * undefined before (the first sentinel waits the whole deadline: a queue's lag is not known yet).
   */
  quietMs(): number | undefined {
    return this.#lagMs === undefined ? undefined : QUIET_FACTOR * this.#lagMs + QUIET_MIN_MS;
  }

  /**
   * How long `open` bookings not yet recorded are asked again before a sentinel is sent, once the
   * receiver's lag is known (twice the lag and a short grace, as a settled reading); undefined before,
   * and for more bookings than a sentinel that read right had in front of it (a burst: its lag says
   * nothing of that many).
   */
  lagWaitMs(open: number): number | undefined {
    if (this.#lagMs === undefined || open > this.#lagAhead) return undefined;
    return QUICK_MS + 2 * this.#lagMs;
  }

  /** One GET that the trace does not keep (a progress watch's). */
  peek(booking: { bookingId: number; bookingNumber: string }): Promise<ProbeAnswer> {
    return this.#ask(booking);
  }

  /** Starts the record of a case's readings; `startMs` is the case's start (wall clock). */
  beginCase(startMs: number): void {
    this.#readings = [];
    this.#caseStartMs = startMs;
    this.gaveUp = undefined;
  }

  /** The readings since `beginCase`, in the order they ended. */
  readings(): ProbeReading[] {
    return this.#readings;
  }

  #note(
    answer: ProbeAnswer,
    booking: { bookingId: number; bookingNumber: string },
    startedMs: number,
    expect: Expectation | undefined,
  ): void {
    this.#readings.push(probeReading(answer, booking, startedMs - this.#caseStartMs, expect));
  }

  /**
   * GETs the recorded state of one booking once; never throws (a network error is an answer too).
   * `expect` is what the caller will judge it against (kept in the trace).
   */
  async get(
    booking: { bookingId: number; bookingNumber: string },
    expect?: Expectation,
  ): Promise<ProbeAnswer> {
    const startedMs = Date.now();
    const answer = await this.#ask(booking);
    this.#note(answer, booking, startedMs, expect);
    return answer;
  }

  async #ask(booking: { bookingId: number; bookingNumber: string }): Promise<ProbeAnswer> {
    const url = this.urlFor(booking);
    // Once the budget is spent, no request goes out (a loaded machine may not abort one at once).
    if (this.stop?.aborted) return { url, text: `no answer: ${(this.stop.reason as Error).message}` };
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: this.#agent,
        // The probe shows bookings: a receiver may protect it with the same key as its webhook.
        headers: { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' },
        signal: this.stop
          ? AbortSignal.any([AbortSignal.timeout(this.timeoutMs), this.stop])
          : AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.body.text();
      const answer: ProbeAnswer = { url, status: res.statusCode, text: shorten(text) };
      if (res.statusCode === 200) {
        try {
          const parsed = JSON.parse(text) as { BookingStatus?: unknown } | null;
          if (typeof parsed?.BookingStatus === 'string') answer.bookingStatus = parsed.BookingStatus;
          if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
            answer.json = parsed as Record<string, unknown>;
        } catch {}
      }
      return answer;
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      const cause = e.cause?.message ?? e.message;
      return {
        url,
        text: `no answer: ${cause}${(e.cause?.code ?? e.code) ? ` (${e.cause?.code ?? e.code})` : ''}`,
      };
    }
  }

  /**
   * Asks until `right(answer)` holds or the deadline passes; answers the last answer with how long
   * it took (`waitedMs`) and how many asks (`asks`). A receiver that queues its work is right only
   * after its queue ran: one read right after the 200 would blame it for its (allowed) lag.
   */
  async until(
    booking: { bookingId: number; bookingNumber: string },
    right: (answer: ProbeAnswer) => boolean,
    expect?: Expectation,
    watch?: QuietWatch,
  ): Promise<ProbeAnswer> {
    const started = performance.now();
    const startedMs = Date.now();
    let pause = POLL_FIRST_MS;
    let progressAt = started;
    for (let asks = 1; ; asks++) {
      const answer = await this.#ask(booking);
      const waitedMs = Math.round(performance.now() - started);
      if (!right(answer) && watch && (await watch.progress())) progressAt = performance.now();
      const quiet = watch !== undefined && performance.now() - progressAt + pause > watch.quietMs;
      const behind = right(answer)
        ? undefined
        : watch?.behind?.(waitedMs, this.#deadline() - waitedMs, this.#deadline());
      if (behind) this.gaveUp = behind;
      if (right(answer) || quiet || behind || waitedMs + pause > this.#deadline() || this.stop?.aborted) {
        const last = { ...answer, waitedMs, asks };
        this.#note(last, booking, startedMs, expect);
        return last;
      }
      await wait(pause, this.stop);
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
  }

  /**
   * `until` for many bookings at once, within one shared deadline: every booking not yet right is
   * asked again each round (at most PARALLEL_ASKS at a time), so a check of 50 bookings with 30 lost
   * costs one deadline, not 30. Answers in the order given.
   */
  async untilAll(
    bookings: ReadonlyArray<{ bookingId: number; bookingNumber: string }>,
    right: (answer: ProbeAnswer) => boolean,
    expect?: Expectation,
    /** Ask each booking once, not until the deadline (a reading that is right is final for the caller). */
    once = false,
    /** A shorter deadline than the probe's, in ms (the receiver's known lag, `lagWaitMs`). */
    withinMs = Number.POSITIVE_INFINITY,
  ): Promise<ProbeAnswer[]> {
    const started = performance.now();
    const startedMs = Date.now();
    const answers: ProbeAnswer[] = new Array(bookings.length);
    let open = bookings.map((_, i) => i);
    let pause = POLL_FIRST_MS;
    for (let asks = 1; open.length > 0; asks++) {
      for (let i = 0; i < open.length; i += PARALLEL_ASKS) {
        const slice = open.slice(i, i + PARALLEL_ASKS);
        const got = await Promise.all(slice.map((n) => this.#ask(bookings[n]!)));
        const waitedMs = Math.round(performance.now() - started);
        for (const [k, n] of slice.entries()) answers[n] = { ...got[k]!, waitedMs, asks };
      }
      open = open.filter((n) => !right(answers[n]!));
      const deadline = Math.min(this.#deadline(), withinMs);
      if (once || performance.now() - started + pause > deadline || this.stop?.aborted) break;
      if (open.length > 0) await wait(pause, this.stop);
      pause = Math.min(POLL_MAX_MS, pause * 2);
    }
    for (const [i, b] of bookings.entries()) this.#note(answers[i]!, b, startedMs, expect);
    return answers;
  }

  #deadline(): number {
    if (!this.recording) return Math.min(this.deadlineMs, QUICK_MS);
    if (this.#settledAt !== undefined && this.#settledAt === this.sentCount())
      return Math.min(this.deadlineMs, QUICK_MS + 2 * (this.#lagMs ?? 0));
    return this.deadlineMs;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

/** An evidence line for one probe call. */
export function probeEvidence(answer: ProbeAnswer, what: string): Evidence {
  const received =
    answer.status === undefined
      ? answer.text
      : `HTTP ${answer.status}${answer.text ? ` ${answer.text}` : ''}`;
  const waited =
    answer.asks === undefined
      ? ''
      : answer.asks === 1
        ? ' (first ask)'
        : ` (after ${answer.waitedMs} ms, ${answer.asks} asks)`;
  return { sent: `GET ${answer.url} (${what})`, received: `${received}${waited}` };
}

/** The recorded status as a reason line shows it. */
export function recordedText(answer: ProbeAnswer): string {
  if (answer.bookingStatus !== undefined) return answer.bookingStatus;
  if (answer.status === undefined) return answer.text;
  if (answer.status === 404) return 'unknown (404)';
  if (answer.status === 200) return `a 200 without a BookingStatus string (${answer.text})`;
  return `HTTP ${answer.status}`;
}

function shorten(text: string): string {
  const t = text.trim();
  return t.length > SHOWN_CHARS ? `${t.slice(0, SHOWN_CHARS)}…` : t;
}
