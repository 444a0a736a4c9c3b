/**
 * The `--probe` client: asks the receiver what it recorded for a booking. A GET to the template
 * (with {BookingID} or {BookingNumber} filled in) answers 200 with `{"BookingStatus": …}`, or 404
 * for a booking the receiver does not know (docs/verify.md "--probe").
 */
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Evidence } from './types.js';

/** What the probe answered for one booking. */
export interface ProbeAnswer {
  url: string;
  /** HTTP status, absent when no answer came. */
  status?: number;
  /** `BookingStatus` of a 200 answer, when it carried one. */
  bookingStatus?: string;
  /** The answer's body (shortened) or the network error. */
  text: string;
}

const SHOWN_CHARS = 200;

export class Probe {
  readonly #agent: Agent;

  constructor(
    private readonly template: string,
    private readonly apiKey: string,
    caPems: readonly string[],
    private readonly timeoutMs: number,
  ) {
    this.#agent = new Agent({
      connect: { ca: [...rootCertificates, ...caPems], minVersion: 'TLSv1.2', timeout: timeoutMs },
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

  /** GETs the recorded state of one booking; never throws (a network error is an answer too). */
  async get(booking: { bookingId: number; bookingNumber: string }): Promise<ProbeAnswer> {
    const url = this.urlFor(booking);
    try {
      const res = await request(url, {
        method: 'GET',
        dispatcher: this.#agent,
        // The probe shows bookings: a receiver may protect it with the same key as its webhook.
        headers: { authorization: `Bearer ${this.apiKey}`, accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await res.body.text();
      const answer: ProbeAnswer = { url, status: res.statusCode, text: shorten(text) };
      if (res.statusCode === 200) {
        try {
          const parsed = JSON.parse(text) as { BookingStatus?: unknown } | null;
          if (typeof parsed?.BookingStatus === 'string') answer.bookingStatus = parsed.BookingStatus;
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
  return { sent: `GET ${answer.url} (${what})`, received };
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
