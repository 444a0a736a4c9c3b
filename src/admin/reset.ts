import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { announce } from './announce.js';

/** `POST /__admin/reset`: forgets reservations, notifications, tokens, journal and faults; keeps users and credentials. */
export function resetRoutes(emulator: Emulator): Hono {
  const app = new Hono();
  app.post('/reset', (c) => {
    emulator.reset();
    announce(emulator, 'reset', 'reservations, notifications, tokens, journal and faults forgotten');
    return c.json({ status: 'reset' });
  });
  return app;
}
