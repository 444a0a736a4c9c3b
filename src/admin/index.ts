import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { clockRoutes } from './clock.js';
import { configRoutes } from './config.js';
import { credentialRoutes } from './credentials.js';
import { eventRoutes } from './events.js';
import { faultRoutes } from './faults.js';
import { healthRoutes } from './health.js';
import { notificationRoutes } from './notifications.js';
import { openApiRoutes } from './openapi.js';
import { outageRoutes } from './outages.js';
import { redeliveryRoutes } from './redelivery.js';
import { requestRoutes } from './requests.js';
import { reservationRoutes } from './reservations.js';
import { resetRoutes } from './reset.js';
import { type ScenarioRunner, scenarioRoutes } from './scenarios.js';
import { streamRoutes } from './stream.js';
import { tokenRoutes } from './tokens.js';
import { trustRoutes } from './trust.js';
import { uiRoutes } from './ui.js';
import { userRoutes } from './users.js';
import { verifyRoutes } from './verify.js';

export { announceRefused } from './refused.js';
export { refuseWrongMethods } from './wrong-method.js';

/** What the admin API is handed besides the emulator: what runs outside it (a loaded scenario). */
export interface AdminOptions {
  /** Runs the scenario `serve --scenario` loaded (`POST /__admin/scenarios/run`); 404 without one. */
  runScenario?: ScenarioRunner;
}

/** The admin API, mounted under `/__admin`. */
export function adminApp(emulator: Emulator, options: AdminOptions = {}): Hono {
  const app = new Hono();
  app.route('/', healthRoutes(emulator));
  app.route('/', configRoutes(emulator));
  app.route('/', resetRoutes(emulator));
  app.route('/', credentialRoutes(emulator));
  app.route('/', eventRoutes(emulator));
  app.route('/', reservationRoutes(emulator));
  app.route('/', notificationRoutes(emulator));
  app.route('/', redeliveryRoutes(emulator));
  app.route('/', trustRoutes(emulator));
  app.route('/', clockRoutes(emulator));
  app.route('/', userRoutes(emulator));
  app.route('/', tokenRoutes(emulator));
  app.route('/', requestRoutes(emulator));
  app.route('/', faultRoutes(emulator));
  app.route('/', outageRoutes(emulator));
  app.route('/', scenarioRoutes(options.runScenario));
  app.route('/', verifyRoutes(emulator));
  app.route('/', openApiRoutes());
  app.route('/', streamRoutes(emulator));
  app.route('/', uiRoutes());
  return app;
}
