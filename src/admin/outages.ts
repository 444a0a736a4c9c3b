import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';
import { readJsonBody } from './read-json.js';

/**
 * `GET/POST/DELETE /__admin/outages`, `GET/DELETE /__admin/outages/:id`: simulated outages of the
 * user's receiver. Attempts inside one fail as `simulated_outage` and never reach the receiver.
 */
export function outageRoutes(emulator: Emulator): Hono {
  const app = new Hono();
  const outages = () => emulator.delivery.outages;
  app.get('/outages', (c) => c.json({ outages: outages().list() }));
  app.post('/outages', async (c) => {
    const added = outages().add(await readJsonBody(c));
    announce(emulator, 'outage_added', added.id, added.credentialId ?? 'every credential');
    return c.json(added, 201);
  });
  app.delete('/outages', (c) => {
    outages().reset();
    announce(emulator, 'outages_removed', 'all');
    return c.body(null, 204);
  });
  app.get('/outages/:id', (c) => c.json(outages().get(c.req.param('id'))));
  app.delete('/outages/:id', (c) => {
    outages().remove(c.req.param('id'));
    announce(emulator, 'outages_removed', c.req.param('id'));
    return c.body(null, 204);
  });
  return app;
}
