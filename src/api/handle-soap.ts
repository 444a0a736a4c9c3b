import type { Context } from 'hono';
import { type AuthResult, failure, type TokenRequest } from '../auth/index.js';
import { ApiRequestError, MustUnderstandError, malformed } from './api-error.js';
import { answerFault, sleep } from './apply-fault.js';
import { mediaType, readBodyText } from './body.js';
import { type ApiCall, type ApiDeps, type Endpoint, journal, versionString } from './context.js';
import { LOWER_NAMES, pickCredentials } from './fields.js';
import { apiHeaders } from './format.js';
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

/** The SOAP version a Content-Type announces, checking the action it names (SOAPAction / `action=`). */
function soapVersionOf(c: Context): SoapVersion {
  const header = c.req.header('content-type');
  const type = mediaType(header);
  if (type === 'text/xml') {
    const action = c.req.header('soapaction');
    if (action === undefined || unquote(action) !== GET_ACCESS_TOKEN_ACTION) {
      throw malformed(
        `Server did not recognize the value of HTTP Header SOAPAction: ${action ?? ''}. Send SOAPAction: "${GET_ACCESS_TOKEN_ACTION}".`,
      );
    }
    return '1.1';
  }
  if (type === 'application/soap+xml') return '1.2';
  throw new ApiRequestError(
    'unsupported_media_type',
    `Content-Type "${type || '(none)'}" is not a SOAP content type. Send text/xml (SOAP 1.1, with a SOAPAction header) or application/soap+xml (SOAP 1.2).`,
  );
}

/** SOAP 1.2 carries the action in the Content-Type; when given it must be GetAccessToken's. */
function checkSoap12Action(c: Context): void {
  const m = /;\s*action\s*=\s*("[^"]*"|[^;]*)/i.exec(c.req.header('content-type') ?? '');
  if (m?.[1] !== undefined && unquote(m[1]) !== GET_ACCESS_TOKEN_ACTION) {
    throw malformed(
      `Server did not recognize the action "${unquote(m[1])}". Use action="${GET_ACCESS_TOKEN_ACTION}".`,
    );
  }
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

/** What reading a SOAP call gave: its credentials, or the error to answer with. */
type SoapRead = { req: TokenRequest; err?: undefined } | { req?: undefined; err: unknown };

async function readCall(c: Context, ep: Endpoint, deps: ApiDeps, soap: SoapVersion): Promise<SoapRead> {
  try {
    if (soap === '1.2') checkSoap12Action(c);
    const call = await parseEnvelope(await readBodyText(c, true), soap);
    const acceptLowercase = ep.version === '1.7' && deps.settings.acceptLowercaseKeys;
    return { req: tokenRequest(ep, call.operation, acceptLowercase) };
  } catch (err) {
    return { err };
  }
}

/**
 * SOAP GetAccessToken on FlightService.asmx (1.6) and AuthService.asmx (1.7). Answers in the
 * request's envelope version; anything unreadable is a SOAP Fault with HTTP 500 (as ASP.NET does).
 * The request is read before an injected fault applies, so a faulted call is journaled with its user.
 */
export async function handleSoapCall(c: Context, ep: Endpoint, deps: ApiDeps): Promise<Response> {
  const path = c.req.path;
  const baseHeaders = apiHeaders(ep.version, versionString(deps, ep.version), null);
  let soap: SoapVersion;
  try {
    soap = soapVersionOf(c);
  } catch (err) {
    // Cannot tell the version: answer in SOAP 1.1, ASP.NET's default.
    return fault(c, deps, ep, path, '1.1', err, baseHeaders);
  }
  const variant = soap === '1.1' ? 'soap11' : 'soap12';
  const read = await readCall(c, ep, deps, soap);
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
  let options: SoapFaultOptions = { status };
  if (err instanceof ApiRequestError) {
    result = failure(err.outcome, err.message);
    kind = err.soapFault;
    if (err.outcome === 'payload_too_large') headers = { ...headers, Connection: 'close' };
    if (err instanceof MustUnderstandError) options = { ...options, notUnderstood: err.header };
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
  return renderSoapFault(soap, kind, message, result.transactionCode, headers, options);
}
