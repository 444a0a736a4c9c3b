import { Hono } from 'hono';
import { deliveryStats } from '../delivery/index.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/**
 * `GET/POST /__admin/credentials`, `PUT/DELETE /__admin/credentials/:id` (docs/admin-api.md
 * "Credentials"), and `GET /__admin/delivery-stats`: the delivery figures per credential.
 */
export function credentialRoutes(emulator: Emulator): Hono {
  const delivery = emulator.delivery;
  const { credentials } = delivery;
  return mount(new Hono(), {
    listCredentials: () => ({ credentials: credentials.list() }),
    addCredential: (_c, { body }) => credentials.add(body),
    // Replaced in place, validated as POST; notifications already made keep their URL and ApiKey.
    updateCredential: (_c, { params, body }) => credentials.replace(params.id, body),
    // In slices that give the event loop back (decision 0209).
    deliveryStats: () =>
      deliveryStats(
        credentials.list().map((c) => c.id),
        delivery.outbox.list(),
        emulator.clock.describe().nextBatchAt,
        Date.now(),
      ),
    deleteCredential: (_c, { params }) => {
      delivery.removeCredential(params.id);
    },
  });
}
