import type { Hono, MiddlewareHandler } from 'hono';

/**
 * Serves a prefix from a sub-app built on the first request under it, so its modules are not
 * loaded at start-up. `build` answers an app whose routes carry the full path (mount with
 * `new Hono().route(prefix, sub)`) and that answers unmatched requests through `unmatched(c)`:
 * those then continue to the next handler, exactly as if the sub-app's routes had been mounted
 * in place (`app.route`). Register it with `app.use(`${prefix}/*`, lazyMount(build))`.
 */
export function lazyMount(build: (unmatched: Unmatched) => Promise<Hono>): MiddlewareHandler {
  // Requests the sub-app had no route for; the raw Request is the same object on both sides.
  const missed = new WeakSet<Request>();
  const unmatched: Unmatched = (c) => {
    missed.add(c.req.raw);
    return c.body(null, 404);
  };
  let app: Promise<Hono> | undefined;
  return async (c, next) => {
    app ??= build(unmatched).catch((err: unknown) => {
      app = undefined; // a failed load is retried by the next request, not cached
      throw err;
    });
    const res = await (await app).fetch(c.req.raw, c.env);
    if (missed.has(c.req.raw)) return next();
    return res;
  };
}

/** The `notFound` handler a lazily mounted sub-app must use. */
export type Unmatched = Parameters<Hono['notFound']>[0];
