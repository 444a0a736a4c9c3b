import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';

/** `GET /__admin/tokens[?username=]` (expiry judged on the emulator clock), `DELETE /__admin/tokens/:token`. */
export function tokenRoutes(emulator: Emulator): Hono {
  const { tokens } = emulator.auth;
  const app = new Hono();
  app.get('/tokens', (c) => {
    const username = c.req.query('username');
    return c.json({ tokens: tokens.list(username === undefined ? {} : { username }) });
  });
  app.delete('/tokens/:token', (c) => {
    tokens.revoke(c.req.param('token'));
    return c.body(null, 204);
  });
  return app;
}
