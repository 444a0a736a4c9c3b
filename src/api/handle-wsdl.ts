import type { Context } from 'hono';
import { type ApiDeps, type Endpoint, versionString } from './context.js';
import { escapeXml } from './format.js';
import { AUTH_SERVICE_WSDL, buildDisco, buildWsdl, FLIGHT_SERVICE_WSDL } from './wsdl/index.js';

/** True for `?<flag>` in any casing (ASP.NET accepts `?WSDL`, `?DISCO`). */
function hasFlag(c: Context, flag: 'wsdl' | 'disco'): boolean {
  return Object.keys(c.req.query()).some((k) => k.toLowerCase() === flag);
}

/** The service URL as the client used it (ASP.NET addresses its documents that way). */
function serviceUrl(c: Context): string {
  const url = new URL(c.req.url);
  return `${url.origin}${url.pathname}`;
}

function xml(body: string, ep: Endpoint, deps: ApiDeps): Response {
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/xml; charset=utf-8', 'X-API-Version': versionString(deps, ep.version) },
  });
}

/** `GET <service>.asmx`: `?wsdl` the WSDL, `?disco` the discovery document, else the help page. */
export function handleServiceGet(c: Context, ep: Endpoint, deps: ApiDeps): Response {
  const location = serviceUrl(c);
  if (hasFlag(c, 'wsdl')) {
    const parts = ep.service === 'FlightService' ? FLIGHT_SERVICE_WSDL : AUTH_SERVICE_WSDL;
    return xml(buildWsdl(parts, location), ep, deps);
  }
  if (hasFlag(c, 'disco')) return xml(buildDisco(ep.service, location), ep, deps);
  return servicePage(location, ep, deps);
}

/**
 * The help page. Its `<link rel="alternate" type="text/xml">` points at `?disco` as ASP.NET's does:
 * discovery tools given the plain `.asmx` URL read it ("The HTML document does not contain Web
 * service discovery information" otherwise).
 */
function servicePage(location: string, ep: Endpoint, deps: ApiDeps): Response {
  const wsdl = escapeXml(`${location}?wsdl`);
  const disco = escapeXml(`${location}?disco`);
  const body = `<!DOCTYPE html><html><head><title>${ep.service}</title><link rel="alternate" type="text/xml" href="${disco}"/></head><body><h1>${ep.service} (API ${ep.version})</h1><p>Operation: GetAccessToken (POST, SOAP 1.1 and 1.2).</p><p>Service description: <a href="${wsdl}">${wsdl}</a></p><p>Discovery document: <a href="${disco}">${disco}</a></p></body></html>`;
  return new Response(body, {
    status: 200,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'X-API-Version': versionString(deps, ep.version) },
  });
}
