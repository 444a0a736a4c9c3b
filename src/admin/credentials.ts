import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
import { readJsonBody } from './read-json.js';

/** `GET/POST /__admin/credentials`, `DELETE /__admin/credentials/:id` (docs/admin-api.md "Credentials"). */
export function credentialRoutes(emulator: Emulator): Hono {
  const delivery = emulator.delivery;
  const { credentials } = delivery;
  const app = new Hono();
  app.get('/credentials', (c) => c.json({ credentials: credentials.list() }));
  app.post('/credentials', async (c) => {
    const added = credentials.add(await readJsonBody(c));
    announce(emulator, 'credential_added', added.id, `→ ${added.url}`);
    return c.json(added, 201);
  });
  app.delete('/credentials/:id', (c) => {
    delivery.removeCredential(c.req.param('id'));
    announce(emulator, 'credential_removed', c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}
