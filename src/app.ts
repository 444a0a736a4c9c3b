import { Hono } from 'hono';
import { adminApp } from './admin/index.js';
import { apiApp } from './api/index.js';
import type { Emulator } from './emulator.js';
import { EmulatorError, NotFoundError, toEmulatorError } from './errors.js';

/** Builds the HTTP app of an emulator: provider API and admin API on one port. No I/O here. */
export function createApp(emulator: Emulator): Hono {
  const app = new Hono();
  app.route('/__admin', adminApp(emulator));
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
  app.onError((err, c) => {
    const e = toEmulatorError(err);
    if (!(err instanceof EmulatorError)) emulator.log.error({ err }, 'unhandled error in request');
    return c.json(e.toProblem(), e.status as 400);
  });
  return app;
}
