import { type Context, Hono } from 'hono';
import type { ApiVersion } from '../auth/index.js';
import type { ApiDeps, Endpoint } from './context.js';
import { keepExchange } from './exchange.js';
import { handleRest } from './handle-rest.js';
import { handleSoapCall, handleSoapMethodNotAllowed } from './handle-soap.js';
import { handleServiceGet } from './handle-wsdl.js';

export type { ApiDeps } from './context.js';
export { exchangeOf } from './exchange.js';

/**
 * The endpoints of one version under its base path (spec "3. GetAccessToken"; product rule "GetAccessToken").
 */
function endpoints(version: ApiVersion): Endpoint[] {
  if (version === '1.6') {
    return [
      { version, kind: 'json', service: 'FlightService', path: '/FlightService.json/GetAccessToken' },
      { version, kind: 'xml', service: 'FlightService', path: '/FlightService.xml/GetAccessToken' },
      { version, kind: 'soap', service: 'FlightService', path: '/FlightService.asmx' },
    ];
  }
  return [
    { version, kind: 'json', service: 'AuthService', path: '/AuthService.json/GetAccessToken' },
    // The spec makes the path change optional for JSON: the old path answers as 1.7 under /api/1.7.
    { version, kind: 'json', service: 'FlightService', path: '/FlightService.json/GetAccessToken' },
    { version, kind: 'xml', service: 'AuthService', path: '/AuthService.xml/GetAccessToken' },
    { version, kind: 'soap', service: 'AuthService', path: '/AuthService.asmx' },
  ];
}

function trimSlash(p: string): string {
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

function handle(c: Context, ep: Endpoint, deps: ApiDeps): Response | Promise<Response> {
  if (ep.kind !== 'soap') return handleRest(c, ep, deps);
  const method = c.req.method;
  // Hono answers HEAD from the GET response without its body.
  if (method === 'GET' || method === 'HEAD') return handleServiceGet(c, ep, deps);
  if (method === 'POST') return handleSoapCall(c, ep, deps);
  return handleSoapMethodNotAllowed(c, ep, deps);
}

/**
 * The provider API as a Hono middleware app: paths are matched case-insensitively, as IIS does;
 * anything else falls through to the next handler (the app's 404).
 */
export function apiApp(deps: ApiDeps): Hono {
  const table = new Map<string, Endpoint>();
  for (const [version, base] of [
    ['1.6', deps.settings.basePath16],
    ['1.7', deps.settings.basePath17],
  ] as const) {
    for (const ep of endpoints(version)) table.set(`${trimSlash(base)}${ep.path}`.toLowerCase(), ep);
  }
  const app = new Hono();
  app.use('*', async (c, next) => {
    const ep = table.get(trimSlash(c.req.path).toLowerCase());
    if (!ep) return next();
    const res = await handle(c, ep, deps);
    keepExchange(c, res); // the journal shows the call as it was (GET /__admin/requests/:id)
    return res;
  });
  return app;
}
