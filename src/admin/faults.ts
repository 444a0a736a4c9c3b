import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `POST/GET/DELETE /__admin/faults`, `DELETE /__admin/faults/:id`: fault injection for SDK tests. */
export function faultRoutes(emulator: Emulator): Hono {
  const { faults } = emulator.auth;
  return mount(new Hono(), {
    listFaults: () => ({ faults: faults.list() }),
    addFault: (_c, { body }) => faults.add(body),
    clearFaults: () => {
      faults.clear();
    },
    deleteFault: (_c, { params }) => {
      faults.remove(params.id);
    },
  });
}
