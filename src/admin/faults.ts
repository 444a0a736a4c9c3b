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
/** `POST/GET/DELETE /__admin/faults`, `DELETE /__admin/faults/:id`: fault injection for SDK tests. */
export function faultRoutes(emulator: Emulator): Hono {
  const { faults } = emulator.auth;
  const app = new Hono();
  app.get('/faults', (c) => c.json({ faults: faults.list() }));
  app.post('/faults', async (c) => c.json(faults.add(await readJson(c)), 201));
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
