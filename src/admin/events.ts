import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { parseEventInput } from '../reservations/index.js';
import { eventResult } from './event-result.js';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

/**
 * `POST /__admin/events`: applies the event, routes each body to every matching credential and
 * answers 202 at once; first attempts run in the background (spec "Events": delivery is asynchronous).
 */
export function eventRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    emitEvent: async (c) => {
      const lifecycle = emulator.reservations.apply(parseEventInput(await readJsonBody(c)));
      const result = eventResult(lifecycle, emulator.delivery.routeEvent(lifecycle));
      return result;
    },
  });
}
