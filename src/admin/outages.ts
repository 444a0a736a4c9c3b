import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/**
 * `GET/POST/DELETE /__admin/outages`, `GET/DELETE /__admin/outages/:id`: simulated outages of the
 * user's receiver. Attempts inside one fail as `simulated_outage` and never reach the receiver.
 */
export function outageRoutes(emulator: Emulator): Hono {
  const outages = () => emulator.delivery.outages;
  return mount(new Hono(), {
    listOutages: () => ({ outages: outages().list() }),
    addOutage: (_c, { body }) => outages().add(body),
    clearOutages: () => {
      outages().clear();
    },
    getOutage: (_c, { params }) => outages().get(params.id),
    deleteOutage: (_c, { params }) => {
      outages().remove(params.id);
    },
  });
}
