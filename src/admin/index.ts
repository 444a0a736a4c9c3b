import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { healthRoutes } from './health.js';
import { faultRoutes } from './faults.js';
import { requestRoutes } from './requests.js';
import { tokenRoutes } from './tokens.js';
import { userRoutes } from './users.js';

/** The admin API, mounted under `/__admin`. */
export function adminApp(emulator: Emulator): Hono {
  const app = new Hono();
  app.route('/', healthRoutes(emulator));
  app.route('/', userRoutes(emulator));
  app.route('/', tokenRoutes(emulator));
  app.route('/', requestRoutes(emulator));
  app.route('/', faultRoutes(emulator));
  return app;
}
