import { Hono } from 'hono';
import { userView } from '../auth/users.js';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
import { readJsonBody } from './read-json.js';

/**
 * `GET/POST /__admin/users`, `DELETE /__admin/users/:username` (docs/admin-api.md). Answers never
 * carry a password: the admin API may be read by anyone who reaches the port (a dashboard, CI logs).
 */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  const app = new Hono();
  app.get('/users', (c) => c.json({ users: users.list().map(userView) }));
  app.post('/users', async (c) => {
    const added = users.add(await readJsonBody(c));
    announce(emulator, 'user_added', added.username, `(API ${added.versions.join(', ')})`);
    return c.json(userView(added), 201);
  });
  app.delete('/users/:username', (c) => {
    users.remove(c.req.param('username'));
    announce(emulator, 'user_removed', c.req.param('username'));
    return c.body(null, 204);
  });
  return app;
}
