import type { Context, Hono } from 'hono';
import { EmulatorError } from '../errors.js';

/** Order of methods in `Allow` headers and messages. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

interface RoutePattern {
  pattern: RegExp;
  methods: Set<string>;
  /** A path without parameters (`/notifications/resend-failed`). */
  literal: boolean;
}

/** `/credentials/:id` → `^/credentials/[^/]+$` (the admin routes use plain segments and `:params`). */
function toRegExp(path: string): RegExp {
  const parts = path.split('/').map((seg) => {
    if (seg.startsWith(':')) {
      const custom = /\{(.+)\}$/.exec(seg)?.[1];
      return custom ? `(?:${custom})` : '[^/]+';
    }
    return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${parts.join('/')}$`);
}

/** The methods of each route path of `app`, read from the routes themselves (GET implies HEAD). */
function patterns(app: Hono): RoutePattern[] {
  const byPath = new Map<string, Set<string>>();
  for (const { method, path } of app.routes) {
    if (method === 'ALL') continue; // middleware, not a route
    const methods = byPath.get(path) ?? new Set<string>();
    methods.add(method);
    if (method === 'GET') methods.add('HEAD');
    byPath.set(path, methods);
  }
  return [...byPath].map(([path, methods]) => ({
    pattern: toRegExp(path),
    methods,
    literal: !path.includes('/:'),
  }));
}

/**
 * Answers a request whose path is a route of `app` but whose method is not: `405` with an `Allow`
 * header and a message naming the methods the path takes (`OPTIONS` answers `204` with `Allow`).
 * Paths under `under` that are no route go on to the notFound handler. Call it after the last route is added:
 * the methods come from `app.routes`, so a new route is covered without a list to keep.
 */
export function refuseWrongMethods(app: Hono, under: string): void {
  const table = patterns(app);
  app.all(`${under}/*`, (c: Context) => {
    const path = c.req.path;
    // A literal path names its own methods: `/notifications/resend-failed` takes POST only, although
    // `GET /notifications/:id` would also match its text.
    const matching = table.filter(({ pattern }) => pattern.test(path));
    const literal = matching.filter((r) => r.literal);
    const allowed = new Set<string>();
    for (const { methods } of literal.length > 0 ? literal : matching)
      for (const m of methods) allowed.add(m);
    if (allowed.size === 0) return c.notFound();
    allowed.add('OPTIONS');
    const list = METHOD_ORDER.filter((m) => allowed.has(m));
    const allow = list.join(', ');
    if (c.req.method === 'OPTIONS') return c.body(null, 204, { Allow: allow });
    const takes = list.filter((m) => m !== 'HEAD' && m !== 'OPTIONS');
    const err = new EmulatorError(
      'method_not_allowed',
      `Method ${c.req.method} is not allowed on ${path}: it takes ${takes.join(' or ')}. ` +
        'Every admin route and its methods: GET /__admin/openapi.json (docs/admin-api.md).',
      405,
      'user_input',
      { accepted: list },
    );
    return c.json(err.toProblem(), 405, { Allow: allow });
  });
}
