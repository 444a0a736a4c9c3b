import type { Context, Env, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { type Answer, successStatus } from './contract/route.js';
import { ADMIN_ROUTES, type AdminRoutes, type OperationName } from './contract/routes.js';

/**
 * Answers one admin operation: the value of its declared answer (rendered as JSON with the route's
 * success status, or an empty 204), or a Response when it answers otherwise (a stream, a page, a 503).
 */
type Handler<K extends OperationName> = (
  c: Context<Env, AdminRoutes[K]['path']>,
) => Sent<Answer<AdminRoutes[K]>> | Response | Promise<Sent<Answer<AdminRoutes[K]>> | Response>;

/** An answer as a handler may hand it over: the services keep their lists read-only. */
type Sent<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Sent<U>>
    : T extends object
      ? { readonly [P in keyof T]: Sent<T[P]> }
      : T;

/** Handlers by operation name (the keys of ADMIN_ROUTES). */
export type Handlers<K extends OperationName> = { [P in K]: Handler<P> };

/**
 * Adds each handler to `app` at the method and path its route declares (decision 0045): a group of
 * routes names its operations, never a method or path of its own. Returns `app`.
 */
export function mount<K extends OperationName>(app: Hono, handlers: Handlers<K>): Hono {
  for (const [name, handler] of Object.entries(handlers) as Array<[K, Handler<K>]>) {
    const declared = ADMIN_ROUTES[name];
    const status = successStatus(declared);
    app.on(declared.method.toUpperCase(), declared.path, async (c) => {
      const answer = await handler(c);
      if (answer instanceof Response) return answer;
      return status === 204 ? c.body(null, 204) : c.json(answer as object, status as ContentfulStatusCode);
    });
  }
  return app;
}
