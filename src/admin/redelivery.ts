import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `POST /__admin/redelivery/run` (a batch now, at the current emulator time) and `GET /__admin/redelivery/batches`. */
export function redeliveryRoutes(emulator: Emulator): Hono {
  const { outbox } = emulator.delivery;
  return mount(new Hono(), {
    runRedelivery: async () => outbox.runBatch(emulator.clock.now()),
    listBatches: () => ({ batches: outbox.batches() }),
  });
}
