import { Hono } from 'hono';
import { BOOKING_STATUSES } from '../contract/index.js';
import type { Emulator } from '../emulator.js';
import { formatPath, InputError, NotFoundError } from '../errors.js';
import { ADMIN_ROUTES } from './contract/routes.js';
import { eventResult } from './event-result.js';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

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
    redeliver: async (c, { params: { bookingId } }) => {
      const parsed = ADMIN_ROUTES.redeliver.body.safeParse(await readJsonBody(c));
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new InputError(
          'invalid_redeliver',
          `${formatPath(issue.path)}: expected one of ${BOOKING_STATUSES.join(', ')}.`,
          { path: formatPath(issue.path), accepted: BOOKING_STATUSES },
        );
      }
      const lifecycle = emulator.reservations.redeliver(bookingId, parsed.data.status);
      const result = eventResult(lifecycle, emulator.delivery.routeEvent(lifecycle));
      return result;
    },
  });
}
