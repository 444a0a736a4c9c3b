import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
import { readJsonBody } from './read-json.js';

/** `GET/POST /__admin/users`, `DELETE /__admin/users/:username` (docs/admin-api.md). */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  const app = new Hono();
  app.get('/users', (c) => c.json({ users: users.list() }));
  app.post('/users', async (c) => {
    const added = users.add(await readJsonBody(c));
    announce(emulator, 'user_added', added.username, `(API ${added.versions.join(', ')})`);
    return c.json(added, 201);
  });
  app.delete('/users/:username', (c) => {
    users.remove(c.req.param('username'));
    announce(emulator, 'user_removed', c.req.param('username'));
    return c.body(null, 204);
  });
  return app;
}
