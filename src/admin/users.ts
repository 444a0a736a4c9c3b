import { type Context, Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { InputError } from '../errors.js';

/** The request body as JSON, or a 400 naming the problem. */
async function readJson(c: Context): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    throw new InputError(
      'invalid_json',
      'The request body must be a JSON object (Content-Type: application/json).',
    );
  }
}
/** `GET/POST /__admin/users`, `DELETE /__admin/users/:username` (docs/admin-api.md). */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  const app = new Hono();
  app.get('/users', (c) => c.json({ users: users.list() }));
  app.post('/users', async (c) => c.json(users.add(await readJson(c)), 201));
  app.delete('/users/:username', (c) => {
    users.remove(c.req.param('username'));
    return c.body(null, 204);
  });
  return app;
}
