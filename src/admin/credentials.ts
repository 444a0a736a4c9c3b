import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
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
      announce(emulator, 'credential_added', added.id, `→ ${added.url}`);
      return added;
    },
    deleteCredential: (_c, { params }) => {
      delivery.removeCredential(params.id);
      announce(emulator, 'credential_removed', params.id);
    },
  });
}
