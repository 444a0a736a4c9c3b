import type { Context } from 'hono';
import { type AuthResult, failure, type TokenRequest } from '../auth/index.js';
import { ApiRequestError, BodilessError, MustUnderstandError, malformed } from './api-error.js';
import { answerFault, sleep } from './apply-fault.js';
import { mediaType, readSoapBody } from './body.js';
import { type ApiCall, type ApiDeps, type Endpoint, journal, versionString } from './context.js';
import { textResponse } from './exchange.js';
import { LOWER_NAMES, pickCredentials } from './fields.js';
import { apiHeaders, withContentType } from './format.js';
import {
  renderSoap,
  renderSoapFault,
  SOAP_FAULT_STATUS,
  SOAP11_CONTENT_TYPE,
  SOAP12_CONTENT_TYPE,
  type SoapFaultKind,
  type SoapFaultOptions,
  type SoapVersion,
} from './render-soap.js';
import { parseEnvelope } from './soap-envelope.js';
import { GET_ACCESS_TOKEN_ACTION } from './wsdl/index.js';
import { childElements, leafText, localName, type XmlNode } from './xml-parse.js';
import { credentialsFromElement } from './xml-request.js';

function unquote(s: string): string {
  const t = s.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1) : t;
}

/** An action as ASMX compares it: unquoted and URL-decoded (HttpUtility.UrlDecode). */
function actionName(raw: string): string {
  const name = unquote(raw);
  try {
    return decodeURIComponent(name.replaceAll('+', ' '));
  } catch {
    return name;
  }
}

/**
 * How the HTTP headers route a call, as SoapServerProtocol.GuessVersion and the helpers'
 * RouteRequest do with both SOAP versions on: text/xml with a SOAPAction names the method (a
 * SOAPAction naming another is a Fault); text/xml without one, and application/soap+xml whose
 * `action` is absent or names no method, are routed on the Body's first element.
 */
interface Route {
  /** The version the Content-Type announces ('1.1' for text/xml), used until the envelope is read. */
  announced: SoapVersion;
  /** A leniency the journal names (a client bug the provider hides too). */
  warning?: string;
}

function routeOf(c: Context): Route {
  const header = c.req.header('content-type');
  const type = mediaType(header);
  if (type === 'text/xml') {
    const action = c.req.header('soapaction');
    if (action === undefined) {
      return {
        announced: '1.1',
        warning: 'no_soapaction: no SOAPAction header: routed on the Body as ASMX does',
      };
    }
    if (actionName(action) !== GET_ACCESS_TOKEN_ACTION) {
      throw malformed(
        `Server did not recognize the value of HTTP Header SOAPAction: ${action}. Send SOAPAction: "${GET_ACCESS_TOKEN_ACTION}".`,
      );
    }
    return { announced: '1.1' };
  }
  if (type === 'application/soap+xml') {
    const m = /;\s*action\s*=\s*("[^"]*"|[^;]*)/i.exec(header ?? '');
    const action = m?.[1] === undefined ? '' : actionName(m[1]);
    if (action === '' || action === GET_ACCESS_TOKEN_ACTION) return { announced: '1.2' };
    return {
      announced: '1.2',
      warning: `action_not_recognized: action "${action}" names no operation: routed on the Body as ASMX does`,
    };
  }
  // ASMX: SoapException with the UnsupportedMediaType subcode, a 415 with no body.
  throw new BodilessError(
    'unsupported_media_type',
    `Content-Type "${type || '(none)'}" is not a SOAP content type. Send text/xml (SOAP 1.1, with a SOAPAction header) or application/soap+xml (SOAP 1.2).`,
  );
}

function tokenRequest(ep: Endpoint, op: XmlNode, acceptLowercase: boolean): TokenRequest {
  const children = new Map<string, XmlNode | XmlNode[]>();
  for (const [name, child] of childElements(op)) children.set(localName(name), child);
  if (ep.version === '1.6') {
    return pickCredentials('1.6', [...children.keys()], (k) => leafText(children.get(k), k), LOWER_NAMES);
  }
  const request = children.get('request');
  if (request === undefined) {
    const other = [...children.keys()].find((k) => k.toLowerCase() === 'request');
    return {
      version: '1.7',
      username: null,
      password: null,
      warnings: other ? [`non_canonical_casing: "${other}" is not "request"`] : [],
      missingHint: `GetAccessToken takes one element "request" holding Username and Password${other ? ` (got "${other}")` : ''}.`,
    };
  }
  if (Array.isArray(request)) throw malformed('Element request appears more than once.');
  return credentialsFromElement('1.7', request, acceptLowercase);
}

/** What reading a SOAP call gave: the version to answer in, and its credentials or the error to answer with. */
type SoapRead = { soap: SoapVersion } & (
  | { req: TokenRequest; err?: undefined }
  | { req?: undefined; err: unknown }
);

async function readCall(c: Context, ep: Endpoint, deps: ApiDeps, route: Route): Promise<SoapRead> {
  let soap = route.announced;
  try {
    const body = await readSoapBody(c);
    const call = await parseEnvelope(body.text);
    // The envelope's namespace decides (SoapServerProtocol.ReadParameters sets the helper from it).
    soap = call.soap;
    const warnings = [...(route.warning ? [route.warning] : []), ...body.warnings];
    if (route.announced === '1.2' && call.soap === '1.1') {
      // ReadParameters: a SOAP 1.1 message must come as text/xml; the UnsupportedMediaType subcode is a 415.
      throw new BodilessError(
        'unsupported_media_type',
        'A SOAP 1.1 envelope was sent as application/soap+xml. Send SOAP 1.1 as text/xml with a SOAPAction header, or a SOAP 1.2 envelope.',
      );
    }
    if (route.announced === '1.1' && call.soap === '1.2') {
      warnings.push(
        'soap12_as_text_xml: a SOAP 1.2 envelope sent as text/xml: read and answered as SOAP 1.2 as ASMX does',
      );
    }
    const acceptLowercase = ep.version === '1.7' && deps.settings.acceptLowercaseKeys;
    const req = tokenRequest(ep, call.operation, acceptLowercase);
    // After the parameters are read, as SoapHeaderHandling.EnsureHeadersUnderstood runs.
    if (call.notUnderstood) throw new MustUnderstandError(call.notUnderstood);
    req.warnings.push(...warnings);
    return { soap, req };
  } catch (err) {
    // CheckHelperVersion answers a VersionMismatch in SOAP 1.1 whatever was announced.
    if (err instanceof ApiRequestError && err.soapFault === 'VersionMismatch') soap = '1.1';
    return { soap, err };
  }
}

/**
 * SOAP GetAccessToken on FlightService.asmx (1.6) and AuthService.asmx (1.7), answered as ASMX does
 * (product rule "SOAP as ASMX answers it"): in the version of the request's envelope; XML it
 * cannot read is a 400 and a media type it does not take a 415, both with an empty body; anything
 * else unreadable is a SOAP Fault with HTTP 500. The request is read before an injected fault
 * applies, so a faulted call is journaled with its user.
 */
export async function handleSoapCall(c: Context, ep: Endpoint, deps: ApiDeps): Promise<Response> {
  const path = c.req.path;
  const baseHeaders = apiHeaders(ep.version, versionString(deps, ep.version), null);
  let route: Route;
  try {
    route = routeOf(c);
  } catch (err) {
    // Cannot tell the version: answer in SOAP 1.1, ASP.NET's default.
    return fault(c, deps, ep, path, '1.1', err, baseHeaders);
  }
  const read = await readCall(c, ep, deps, route);
  const soap = read.soap;
  const variant = soap === '1.1' ? 'soap11' : 'soap12';
  const call: ApiCall = { c, deps, ep, variant, path, username: read.req?.username ?? null };
  const injected = deps.auth.faults.take(ep.version, variant);
  const type = soap === '1.1' ? SOAP11_CONTENT_TYPE : SOAP12_CONTENT_TYPE;
  const faulted = answerFault(call, { fault: injected, contentType: type, headers: baseHeaders });
  if (faulted) return faulted;
  let res: Response;
  if (read.req) {
    const result = deps.auth.getAccessToken(read.req);
    journal(call, { result, httpStatus: 200, fault: injected });
    const headers = apiHeaders(ep.version, versionString(deps, ep.version), result);
    res = renderSoap(soap, ep.version, result, headers);
  } else {
    res = fault(c, deps, ep, path, soap, read.err, baseHeaders);
  }
  if (injected?.kind === 'delay') await sleep(injected.delayMs ?? 0);
  return res;
}

/** Methods a `.asmx` URL answers: POST runs the operation; GET and HEAD serve the WSDL, disco and help page. */
export const ASMX_ALLOW = 'GET, HEAD, POST';

/**
 * Any other method on a `.asmx` URL: 405 with `Allow`, and a client Fault (code 1000) in the SOAP
 * version the Content-Type announces (1.1 unless it is application/soap+xml), so a SOAP client reads it.
 */
export function handleSoapMethodNotAllowed(c: Context, ep: Endpoint, deps: ApiDeps): Response {
  const soap: SoapVersion =
    mediaType(c.req.header('content-type')) === 'application/soap+xml' ? '1.2' : '1.1';
  const err = malformed(
    `Method ${c.req.method} is not allowed on ${ep.service}.asmx: POST runs GetAccessToken; GET serves the help page, ?wsdl and ?disco.`,
  );
  const headers = { ...apiHeaders(ep.version, versionString(deps, ep.version), null), Allow: ASMX_ALLOW };
  return fault(c, deps, ep, c.req.path, soap, err, headers, 405);
}

function fault(
  c: Context,
  deps: ApiDeps,
  ep: Endpoint,
  path: string,
  soap: SoapVersion,
  err: unknown,
  headers: Record<string, string>,
  status = SOAP_FAULT_STATUS,
): Response {
  let result: AuthResult;
  let kind: SoapFaultKind;
  let options: SoapFaultOptions = {};
  let bodiless = false;
  if (err instanceof ApiRequestError) {
    result = failure(err.outcome, err.message);
    kind = err.soapFault;
    if (err instanceof BodilessError) {
      status = err.status;
      bodiless = true;
    }
    if (err.outcome === 'payload_too_large') headers = { ...headers, Connection: 'close' };
    // ASMX writes no detail on a header fault (SoapHeaderException).
    if (err instanceof MustUnderstandError)
      options = { ...options, notUnderstood: err.header, detail: false };
  } else {
    deps.log.error({ err }, 'unexpected error in SOAP GetAccessToken');
    result = {
      ...failure('malformed_request', 'The server failed to process the request.'),
      transactionCode: null,
    };
    kind = 'Server';
  }
  // The request could not be read, so no user is known.
  const variant = soap === '1.1' ? 'soap11' : 'soap12';
  journal({ c, deps, ep, variant, path, username: null }, { result, httpStatus: status });
  const message = result.transactionMessage ?? '';
  if (bodiless) {
    // The helpers' WriteFault writes an envelope only for a 500: a 400 or 415 goes with no body.
    const type = soap === '1.1' ? SOAP11_CONTENT_TYPE : SOAP12_CONTENT_TYPE;
    return textResponse('', { status, headers: withContentType(headers, type) });
  }
  return renderSoapFault(soap, kind, message, result.transactionCode, headers, { ...options, status });
}
