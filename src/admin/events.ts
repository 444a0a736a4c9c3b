import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announceEvent } from './announce.js';
import { eventResult } from './event-result.js';
import { readJsonBody } from './read-json.js';

/**
 * `POST /__admin/events`: applies the event, routes each body to every matching credential and
 * answers 202 at once; first attempts run in the background (spec "Events": delivery is asynchronous).
 */
export function eventRoutes(emulator: Emulator): Hono {
  const app = new Hono();
  app.post('/events', async (c) => {
    const lifecycle = emulator.reservations.apply((await readJsonBody(c)) as never);
    const result = eventResult(lifecycle, emulator.delivery.dispatch(lifecycle.emit));
    announceEvent(emulator, result);
    return c.json(result, 202);
  });
  return app;
}
