/**
 * Many notifications in an emulator at once, for the scale of the admin answers (issue 43 §1): the
 * records a data dir would read back (`outbox.state.apply`), made from the generator's fast path, so
 * 100,000 take seconds rather than the hour their deliveries would. Bodies repeat every BODIES
 * records (an export reads and decodes each record's body all the same).
 */
import { packBody } from '../../src/contract/packed.js';
import type { NotificationRecord } from '../../src/delivery/index.js';
import { notificationFilename } from '../../src/delivery/prepare.js';
import type { Emulator } from '../../src/emulator.js';
import { notificationBodies } from '../../src/generate/ndjson.js';

const BODIES = 64;
const HOUR_MS = 3_600_000;

/**
 * Adds `count` settled notifications to `emulator`: record i has 1 + (i % 3) attempts, the first at
 * `startMs + i` ms and each later one an hour on (so the attempts of different records interleave
 * in time), delivered by the last one when `i % 3 < 2`, else exhausted after failures; every
 * `resendEvery`-th record resends the one five before it (`resentFrom`). Answers the records.
 */
export function addNotifications(
  emulator: Emulator,
  count: number,
  options: {
    startMs: number;
    resendEvery?: number;
    credentialId?: string;
    /** The receiver's answer to record i's failed attempts (default `busy`). */
    answer?: (i: number) => string;
  },
): NotificationRecord[] {
  const bodies = [
    ...notificationBodies({
      event: 'Issue',
      count: BODIES,
      seed: 43,
      atMs: options.startMs,
      exchangeNotifies: 'both',
    }),
  ];
  const packed = bodies.map((b) => ({ gz: packBody(b), filename: notificationFilename(b), body: b }));
  const records: NotificationRecord[] = [];
  const iso = (ms: number) => new Date(ms).toISOString();
  for (let i = 0; i < count; i++) {
    const resends = options.resendEvery !== undefined && i >= 5 && i % options.resendEvery === 0;
    // A resend carries its original's body (so its booking).
    const { gz, filename, body } = packed[(resends ? i - 5 : i) % BODIES]!;
    const delivered = i % 3 < 2;
    const attempts = Array.from({ length: 1 + (i % 3) }, (_, k) => {
      const at = options.startMs + i + k * HOUR_MS;
      const last = k === i % 3;
      const ok = delivered && last;
      return {
        number: k + 1,
        startedAt: iso(at),
        startedAtWall: iso(at),
        finishedAt: iso(at + 12),
        durationMs: 12,
        trigger: k === 0 ? ('first' as const) : ('batch' as const),
        outcome: 'http_status' as const,
        statusCode: ok ? 200 : 503,
        message: ok ? 'HTTP 200' : 'HTTP 503',
        responseBody: ok ? 'ok' : (options.answer?.(i) ?? 'busy'),
        responseHeaders: { 'content-type': 'text/plain' },
      };
    });
    const lastAt = iso(options.startMs + i + (i % 3) * HOUR_MS + 12);
    records.push({
      id: `n-${String(i + 1).padStart(6, '0')}`,
      credentialId: options.credentialId ?? 'main',
      bookingId: body.Reservation.BookingID,
      bookingNumber: body.Reservation.BookingNumber,
      bookingStatus: body.Reservation.BookingStatus,
      state: delivered ? 'delivered' : 'exhausted',
      url: 'http://127.0.0.1:9/hook?from=emulator',
      createdAt: iso(options.startMs + i),
      deliveredAt: delivered ? lastAt : null,
      exhaustedAt: delivered ? null : lastAt,
      cancelledAt: null,
      cancelReason: null,
      cancelWhenSettled: undefined,
      filename,
      authorization: 'Bearer k-main',
      gz,
      attempts,
      warnings: [],
      inFlight: false,
      resentFrom: resends ? `n-${String(i - 4).padStart(6, '0')}` : null,
    });
  }
  for (const notification of records)
    emulator.delivery.outbox.state.apply({ kind: 'notification_created', notification });
  return records;
}
