import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { NotFoundError } from '../errors.js';
import { eventResult } from './event-result.js';
import { mount } from './mount.js';

/** `GET /__admin/reservations[/:bookingId]`, `POST /__admin/reservations/:bookingId/redeliver`. */
export function reservationRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    listReservations: () => ({ reservations: emulator.reservations.list() }),
    getReservation: (_c, { params: { bookingId } }) => {
      const reservation = emulator.reservations.get(bookingId);
      if (!reservation)
        throw new NotFoundError('reservation_not_found', `No reservation with BookingID ${bookingId}.`);
      return reservation;
    },
    // Manual redelivery, spec "2. Manual redelivery (servicing tool, not an HTTP operation of this interface)":
    // a NEW notification per matching credential, never a re-send.
    redeliver: (_c, { params: { bookingId }, body }) => {
      const lifecycle = emulator.reservations.redeliver(bookingId, body.status);
      return eventResult(lifecycle, emulator.delivery.routeEvent(lifecycle));
    },
  });
}
