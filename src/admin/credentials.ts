import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

/** `GET/POST /__admin/credentials`, `DELETE /__admin/credentials/:id` (docs/admin-api.md "Credentials"). */
export function credentialRoutes(emulator: Emulator): Hono {
  const delivery = emulator.delivery;
  const { credentials } = delivery;
  return mount(new Hono(), {
    listCredentials: () => ({ credentials: credentials.list() }),
    addCredential: async (c) => {
      const added = credentials.add(await readJsonBody(c));
      return added;
    },
    deleteCredential: (c) => {
      delivery.removeCredential(c.req.param('id'));
    },
  });
}
