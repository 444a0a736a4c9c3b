import { Hono } from 'hono';
import { z } from 'zod';
import { BOOKING_STATUSES } from '../contract/index.js';
import type { Emulator } from '../emulator.js';
import { formatPath, InputError, NotFoundError } from '../errors.js';
import { announceEvent } from './announce.js';
import { eventResult } from './event-result.js';
import { intParam, readJsonBody } from './read-json.js';

const RedeliverSchema = z.strictObject({ status: z.enum(BOOKING_STATUSES) });

/** `GET /__admin/reservations[/:bookingId]`, `POST /__admin/reservations/:bookingId/redeliver`. */
export function reservationRoutes(emulator: Emulator): Hono {
  const app = new Hono();
  app.get('/reservations', (c) => c.json({ reservations: emulator.reservations.list() }));
  app.get('/reservations/:bookingId', (c) => {
    const bookingId = intParam(c.req.param('bookingId'), 'bookingId');
    const reservation = emulator.reservations.get(bookingId);
    if (!reservation)
      throw new NotFoundError('reservation_not_found', `No reservation with BookingID ${bookingId}.`);
    return c.json(reservation);
  });
  // Manual redelivery, spec "2. Manual redelivery (servicing tool, not an HTTP operation of this interface)":
  // a NEW notification per matching credential, never a re-send.
  app.post('/reservations/:bookingId/redeliver', async (c) => {
    const bookingId = intParam(c.req.param('bookingId'), 'bookingId');
    const parsed = RedeliverSchema.safeParse(await readJsonBody(c));
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError(
        'invalid_redeliver',
        `${formatPath(issue.path)}: expected one of ${BOOKING_STATUSES.join(', ')}.`,
        {
          path: formatPath(issue.path),
          accepted: BOOKING_STATUSES,
        },
      );
    }
    const lifecycle = emulator.reservations.redeliver(bookingId, parsed.data.status);
    const result = eventResult(lifecycle, emulator.delivery.dispatch(lifecycle.emit));
    announceEvent(emulator, result);
    return c.json(result, 202);
  });
  return app;
}
