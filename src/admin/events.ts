import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { eventResult } from './event-result.js';
import { mount } from './mount.js';

/**
 * `POST /__admin/events`: applies the event, routes each body to every matching credential and
 * answers 202 at once; first attempts run in the background (spec "Events": delivery is asynchronous).
 */
export function eventRoutes(emulator: Emulator): Hono {
  return mount(new Hono(), {
    emitEvent: (_c, { body }) => {
      const lifecycle = emulator.reservations.apply(body);
      return eventResult(lifecycle, emulator.delivery.routeEvent(lifecycle));
    },
  });
}
