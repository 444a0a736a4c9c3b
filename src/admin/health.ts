import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/**
 * `GET /__admin/health`: `{"status":"ok"}` once the emulator is ready, 503 `starting` before; both
 * name the package version, so a CI log shows which emulator answered.
 */
export function healthRoutes(emulator: Emulator): Hono {
  let ready = false;
  void emulator.ready.then(() => {
    ready = true;
  });
  return mount(new Hono(), {
    health: (c) =>
      ready
        ? {
            status: 'ok' as const,
            version: packageVersion(),
            clock: emulator.clock.mode,
            seed: emulator.seed,
          }
        : c.json({ status: 'starting' as const, version: packageVersion() }, 503),
  });
}
