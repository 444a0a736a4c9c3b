import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { reservationSummary } from '../reservations/index.js';
import { eventResult } from './event-result.js';
import { mount } from './mount.js';
import { listPage } from './paging.js';

/** `GET /__admin/reservations[/:bookingId]`, `POST /__admin/reservations/:bookingId/redeliver`. */
export function reservationRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    // Reservations are never dropped (one per booking): a page of them (decision 0236).
    listReservations: (c, { query }) =>
      listPage('reservations', [...emulator.reservations.storedAll().records], query, {
        idOf: (r) => String(r.bookingId),
        what: 'reservation',
        view: reservationSummary,
        signal: c.req.raw.signal,
      }),
    getReservation: (_c, { params: { bookingId } }) => {
      const reservation = emulator.reservations.get(bookingId);
      if (!reservation)
        throw new NotFoundError('reservation_not_found', `No reservation with BookingID ${bookingId}.`);
      return reservation;
    },
    // Manual redelivery, spec "2. Manual redelivery (servicing tool, not an HTTP operation of this interface)":
    // a NEW notification per matching credential, never a re-send. It takes the place of the
    // booking's pending notifications to those credentials unless `keepPending` (decision 0200).
    redeliver: (_c, { params: { bookingId }, body }) => {
      const { outbox } = emulator.delivery;
      const pending = body.keepPending ? [] : outbox.list({ bookingId, state: 'pending' });
      const lifecycle = emulator.reservations.redeliver(bookingId, body.status);
      const result = eventResult(lifecycle, emulator.delivery.routeEvent(lifecycle));
      const to = new Set(result.notifications.map((n) => n.credentialId));
      const settled = pending.filter((n) => to.has(n.credentialId) && outbox.supersede(n) !== 'unchanged');
      if (settled.length === 0) return result;
      const ids = settled.map((n) => n.id).join(', ');
      return {
        ...result,
        message: `${result.message}; ${ids} ${settled.length === 1 ? 'stops' : 'stop'} being redelivered (cancelled, reason "resent")`,
      };
    },
  });
}
