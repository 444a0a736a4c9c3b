import { type ErrorHandler, Hono, type NotFoundHandler } from 'hono';
import { adminGuard } from './admin/guard.js';
import { healthRoutes } from './admin/health.js';
import type { AdminOptions } from './admin/index.js';
import { apiApp } from './api/index.js';
import { type Emulator, loadEmulatorServices } from './emulator.js';
import { EmulatorError, NotFoundError, toEmulatorError } from './errors.js';
import { lazyModule } from './lazy-module.js';

const adminModule = lazyModule('the admin API', () => import('./admin/index.js'), 'loadAdminApi()');

/**
 * Builds the HTTP app of an emulator: provider API and admin API on one port. No I/O here.
 * `options` hands the admin API what lives outside the emulator (a loaded scenario's runner).
 */
export function createApp(emulator: Emulator, options: AdminOptions = {}): Hono {
  const app = new Hono();
  const onError = errorHandler(emulator);
  const notFound = notFoundHandler(emulator);
  // Before any admin route: Host, Origin, the token and JSON writes (docs/admin-api.md "Security").
  const guard = adminGuard(emulator);
  app.use('/__admin', guard);
  app.use('/__admin/*', guard);
  // A browser opened on the emulator lands on the dashboard (it loads with the admin API, below).
  for (const path of ['/', '/__admin', '/__admin/']) app.get(path, (c) => c.redirect('/__admin/ui', 302));
  // Health answers from start; the rest of the admin API (its schemas, the OpenAPI document, the
  // reservation lifecycle with the generator and the contract, the delivery engine with undici)
  // loads on its first request: ~70 ms off every cold start (docs/benchmarks-method.md).
  app.route('/__admin', healthRoutes(emulator));
  let admin: Promise<Hono> | undefined;
  app.use('/__admin/*', async (c) => {
    admin ??= loadAdminApi().then(
      ({ adminApp, refuseWrongMethods }) => {
        const sub = new Hono().route('/__admin', adminApp(emulator, options));
        // A known path with a wrong method answers 405 + Allow (methods read from the routes above).
        refuseWrongMethods(sub);
        sub.notFound(notFound);
        sub.onError(onError);
        return sub;
      },
      (err: unknown) => {
        admin = undefined; // a failed load is retried by the next request, not cached
        throw err;
      },
    );
    return (await admin).fetch(c.req.raw, c.env);
  });
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

  app.notFound(notFound);
  app.onError(onError);
  return app;
}

/** One answer for every unknown path, inside the admin API or not. */
function notFoundHandler(emulator: Emulator): NotFoundHandler {
  return (c) => {
    const err = new NotFoundError(
      'route_not_found',
      `No route for ${c.req.method} ${new URL(c.req.url).pathname}. The admin API lives under /__admin (see /__admin/health); ` +
        `GetAccessToken under ${emulator.settings.basePath16} and ${emulator.settings.basePath17}.`,
    );
    return c.json(err.toProblem(), 404);
  };
}

/**
 * Loads what the admin API needs beyond health (its routes, the reservation lifecycle, the delivery
 * engine); its first request does this by itself, `startServer` may do it ahead.
 */
export async function loadAdminApi(): Promise<typeof import('./admin/index.js')> {
  const [admin] = await Promise.all([adminModule.load(), loadEmulatorServices()]);
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
