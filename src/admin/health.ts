import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';
import type { Emulator } from '../emulator.js';

/**
 * `GET /__admin/health`: `{"status":"ok"}` once the emulator is ready, 503 `starting` before; both
 * name the package version, so a CI log shows which emulator answered. Declared in the route table
 * as `health` like every admin route, but bound here by hand: it answers from start, before the
 * admin API and its table load (decision 0045).
 */
export function healthRoutes(emulator: Emulator): Hono {
  let ready = false;
  void emulator.ready.then(() => {
    ready = true;
  });
  const app = new Hono();
  app.get('/health', (c) =>
    ready
      ? c.json({ status: 'ok', version: packageVersion(), clock: emulator.clock.mode, seed: emulator.seed })
      : c.json({ status: 'starting', version: packageVersion() }, 503),
  );
  return app;
}
