import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { readJsonBody } from './read-json.js';

/** `POST/GET/DELETE /__admin/faults`, `DELETE /__admin/faults/:id`: fault injection for SDK tests. */
export function faultRoutes(emulator: Emulator): Hono {
  const { faults } = emulator.auth;
  const app = new Hono();
  app.get('/faults', (c) => c.json({ faults: faults.list() }));
  app.post('/faults', async (c) => c.json(faults.add(await readJsonBody(c)), 201));
  app.delete('/faults', (c) => {
    faults.reset();
    return c.body(null, 204);
  });
  app.delete('/faults/:id', (c) => {
    faults.remove(c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}
