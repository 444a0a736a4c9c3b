import { type ErrorHandler, Hono } from 'hono';
import { healthRoutes } from './admin/health.js';
import { apiApp } from './api/index.js';
import { type Emulator, loadEmulatorServices } from './emulator.js';
import { EmulatorError, NotFoundError, toEmulatorError } from './errors.js';
import { lazyMount } from './lazy-mount.js';

/** Builds the HTTP app of an emulator: provider API and admin API on one port. No I/O here. */
export function createApp(emulator: Emulator): Hono {
  const app = new Hono();
  const onError = errorHandler(emulator);
  // A browser opened on the emulator lands on the dashboard (it loads with the admin API, below).
  for (const path of ['/', '/__admin', '/__admin/']) app.get(path, (c) => c.redirect('/__admin/ui', 302));
  // Health answers from start; the rest of the admin API (its schemas, the OpenAPI document, the
  // reservation lifecycle with the generator and the contract) loads on its first request, which
  // keeps ~60 modules off the path to the first GetAccessToken.
  app.route('/__admin', healthRoutes(emulator));
  app.use(
    '/__admin/*',
    lazyMount(async (unmatched) => {
      const { adminApp } = await loadAdminApi();
      const admin = new Hono().route('/__admin', adminApp(emulator));
      admin.notFound(unmatched);
      admin.onError(onError);
      return admin;
    }),
  );
  // GetAccessToken under settings.basePath16 / basePath17, matched case-insensitively (src/api).
  app.route(
    '/',
    apiApp({
      auth: emulator.auth,
      settings: emulator.settings,
      log: emulator.log,
      now: () => emulator.clock.now(),
    }),
  );

  app.notFound((c) => {
    const err = new NotFoundError(
      'route_not_found',
      `No route for ${c.req.method} ${new URL(c.req.url).pathname}. The admin API lives under /__admin (see /__admin/health); ` +
        `GetAccessToken under ${emulator.settings.basePath16} and ${emulator.settings.basePath17}.`,
    );
    return c.json(err.toProblem(), 404);
  });
  app.onError(onError);
  return app;
}

/**
 * Loads what the admin API needs beyond health (its routes, the reservation lifecycle, the delivery
 * engine); its first request does this by itself, `startServer` may do it ahead.
 */
export async function loadAdminApi(): Promise<typeof import('./admin/index.js')> {
  const [admin] = await Promise.all([import('./admin/index.js'), loadEmulatorServices()]);
  return admin;
}

/** One mapping of errors to answers, for the app and the lazily built admin API alike. */
function errorHandler(emulator: Emulator): ErrorHandler {
  return (err, c) => {
    const e = toEmulatorError(err);
    if (!(err instanceof EmulatorError)) emulator.log.error({ err }, 'unhandled error in request');
    return c.json(e.toProblem(), e.status as 400);
  };
}
