import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { healthRoutes } from './health.js';

/** The admin API, mounted under `/__admin`. */
export function adminApp(emulator: Emulator): Hono {
  const app = new Hono();
  app.route('/', healthRoutes(emulator));
  return app;
}
