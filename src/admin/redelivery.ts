import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';

/** `POST /__admin/redelivery/run` (a batch now, at the current emulator time) and `GET /__admin/redelivery/batches`. */
export function redeliveryRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  const app = new Hono();
  app.post('/redelivery/run', async (c) => c.json(await outbox.runBatch(emulator.clock.now())));
  app.get('/redelivery/batches', (c) => c.json({ batches: outbox.batches() }));
  return app;
}
