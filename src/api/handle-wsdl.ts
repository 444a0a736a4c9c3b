import type { Context } from 'hono';
import { type ApiDeps, type Endpoint, versionString } from './context.js';
import { escapeXml } from './format.js';
import { AUTH_SERVICE_WSDL, buildWsdl, FLIGHT_SERVICE_WSDL } from './wsdl/index.js';

/** True for `?wsdl` in any casing (ASP.NET accepts `?WSDL`). */
export function wantsWsdl(c: Context): boolean {
  return Object.keys(c.req.query()).some((k) => k.toLowerCase() === 'wsdl');
}

/** `GET <service>.asmx?wsdl`: the WSDL, addressed at the URL the client used (as ASP.NET does). */
export function handleWsdl(c: Context, ep: Endpoint, deps: ApiDeps): Response {
  const url = new URL(c.req.url);
  const parts = ep.service === 'FlightService' ? FLIGHT_SERVICE_WSDL : AUTH_SERVICE_WSDL;
  return new Response(buildWsdl(parts, `${url.origin}${url.pathname}`), {
    status: 200,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', 'X-API-Version': versionString(deps, ep.version) },
  });
}

/** `GET <service>.asmx`: a short service page pointing at the WSDL (ASP.NET shows a help page). */
export function handleServicePage(c: Context, ep: Endpoint, deps: ApiDeps): Response {
  const url = new URL(c.req.url);
  const wsdl = escapeXml(`${url.origin}${url.pathname}?wsdl`);
  const body = `<!DOCTYPE html><html><head><title>${ep.service}</title></head><body><h1>${ep.service} (API ${ep.version})</h1><p>Operation: GetAccessToken. SOAP 1.1 and 1.2. Service description: <a href="${wsdl}">${wsdl}</a></p></body></html>`;
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-API-Version': versionString(deps, ep.version) },
  });
}
