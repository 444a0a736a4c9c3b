import { Hono } from 'hono';
import { packageVersion } from '../config/version.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/**
 * `GET /__admin/health`: `{"status":"ok"}` once the emulator is ready, 503 `starting` before, 503
 * `degraded` with the reason while it cannot keep changes (a data dir it cannot write, decision 0125:
 * the image HEALTHCHECK then reports unhealthy); all name the package version, so a CI log shows
 * which emulator answered.
 */
export function healthRoutes(emulator: Emulator): Hono {
  let ready = false;
  void emulator.ready.then(() => {
    ready = true;
  });
  return mount(new Hono(), {
    health: (c) => {
      if (!ready) return c.json({ status: 'starting' as const, version: packageVersion() }, 503);
      const about = { version: packageVersion(), clock: emulator.clock.mode, seed: emulator.seed };
      const degraded = emulator.degraded();
      return degraded
        ? c.json({ status: 'degraded' as const, degraded, ...about }, 503)
        : { status: 'ok' as const, ...about };
    },
  });
}
