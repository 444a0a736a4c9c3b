import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
import { readJsonBody } from './read-json.js';

/** `POST/GET/DELETE /__admin/faults`, `DELETE /__admin/faults/:id`: fault injection for SDK tests. */
export function faultRoutes(emulator: Emulator): Hono {
  const { faults } = emulator.auth;
  const app = new Hono();
  app.get('/faults', (c) => c.json({ faults: faults.list() }));
  app.post('/faults', async (c) => {
    const added = faults.add(await readJsonBody(c));
    announce(emulator, 'fault_added', added.id, added.kind);
    return c.json(added, 201);
  });
  app.delete('/faults', (c) => {
    faults.reset();
    announce(emulator, 'faults_removed', 'all');
    return c.body(null, 204);
  });
  app.delete('/faults/:id', (c) => {
    faults.remove(c.req.param('id'));
    announce(emulator, 'faults_removed', c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}
