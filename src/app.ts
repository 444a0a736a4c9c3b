import { type ErrorHandler, Hono, type NotFoundHandler } from 'hono';
import { adminBodyLimits } from './admin/body-limits.js';
import { adminGuard } from './admin/guard.js';
import { type AdminOptions, adminApp, announceRefused, refuseWrongMethods } from './admin/index.js';
import { apiApp } from './api/index.js';
import type { Emulator } from './emulator.js';
import { EmulatorError, NotFoundError, toEmulatorError } from './errors.js';

/**
 * Builds the HTTP app of an emulator: provider API and admin API on one port. No I/O here.
 * `options` hands the admin API what lives outside the emulator (a loaded scenario's runner).
 */
export function createApp(emulator: Emulator, options: AdminOptions = {}): Hono {
  const app = new Hono();
  const onError = errorHandler(emulator);
  const notFound = notFoundHandler(emulator);
  // Every admin call answered 4xx goes to the live stream and the log, the guard's refusals included.
  const refused = announceRefused(emulator);
  app.use('/__admin', refused);
  app.use('/__admin/*', refused);
  // Before any admin route: Host, Origin, the token and JSON writes (docs/admin-api.md "Security").
  const guard = adminGuard(emulator);
  app.use('/__admin', guard);
  app.use('/__admin/*', guard);
  // Then the body: 10 MiB read at most, UTF-8, 64 levels of JSON (decision 0121).
  app.use('/__admin/*', adminBodyLimits());
  // A browser opened on the emulator lands on the dashboard.
  for (const path of ['/', '/__admin', '/__admin/']) app.get(path, (c) => c.redirect('/__admin/ui', 302));
  const admin = new Hono().route('/__admin', adminApp(emulator, options));
  // A known path with a wrong method answers 405 + Allow (methods read from the routes above).
  refuseWrongMethods(admin, '/__admin');
  app.route('/', admin);
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

/** One mapping of errors to answers, for the app and the admin API alike. */
function errorHandler(emulator: Emulator): ErrorHandler {
  return (err, c) => {
    const e = toEmulatorError(err);
    if (!(err instanceof EmulatorError)) emulator.log.error({ err }, 'unhandled error in request');
    return c.json(e.toProblem(), e.status as 400);
  };
}
