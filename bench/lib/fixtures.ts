/**
 * What every GetAccessToken target is asked and must answer: the bench user, the 1.7 JSON and SOAP
 * requests, and the static answers the peers serve (bench/peers/bodies, the same bytes WireMock's
 * mappings and Mockoon's environment carry; `checkStatic` proves they did not drift apart).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HttpAnswer } from './http.js';
import { ROOT } from './proc.js';

/** The user preloaded into the emulator through `--config`. */
export const BENCH_USER = {
  username: 'bench',
  password: 'bench-pass',
  idWeb: 1001,
  webDescription: 'Bench Agency',
  versions: ['1.6', '1.7'],
} as const;

export const PATH_JSON_17 = '/api/1.7/AuthService.json/GetAccessToken';
export const PATH_SOAP_17 = '/api/1.7/AuthService.asmx';

const bodies = join(ROOT, 'bench', 'peers', 'bodies');
/** The static 1.7 JSON GetAccessTokenResponse the peers and the bare Hono handler answer. */
// (Compact: the file is formatted by biome; the stubs carry the compact bytes.)
export const STATIC_JSON_17 = JSON.stringify(
  JSON.parse(readFileSync(join(bodies, 'get-access-token-1.7.json'), 'utf8')),
);

/** Body and headers of a 1.7 JSON GetAccessToken call. */
export function jsonRequest17(): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: JSON.stringify({ Username: BENCH_USER.username, Password: BENCH_USER.password }),
  };
}

/** Namespace and SOAPAction of the 1.7 service; the emulator's are read from its WSDL. */
export interface SoapNames {
  namespace: string;
  soapAction: string;
}

export const DEFAULT_SOAP_NAMES: SoapNames = {
  namespace: 'http://tempuri.org/',
  soapAction: 'http://tempuri.org/GetAccessToken',
};

/** Reads targetNamespace and the GetAccessToken soapAction from a WSDL (defaults when absent). */
export function soapNamesFromWsdl(wsdl: string): SoapNames {
  const namespace = /targetNamespace="([^"]+)"/.exec(wsdl)?.[1] ?? DEFAULT_SOAP_NAMES.namespace;
  const soapAction =
    /soapAction="([^"]*GetAccessToken[^"]*)"/.exec(wsdl)?.[1] ??
    `${namespace.endsWith('/') ? namespace : `${namespace}/`}GetAccessToken`;
  return { namespace, soapAction };
}

/** A SOAP 1.1 envelope as an ASP.NET client sends it: GetAccessToken(request: GetAccessTokenRequest). */
export function soapRequest17(names: SoapNames = DEFAULT_SOAP_NAMES): {
  headers: Record<string, string>;
  body: string;
} {
  return {
    headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: `"${names.soapAction}"` },
    body:
      '<?xml version="1.0" encoding="utf-8"?>' +
      '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
      `<soap:Body><GetAccessToken xmlns="${names.namespace}"><request>` +
      `<Username>${BENCH_USER.username}</Username><Password>${BENCH_USER.password}</Password>` +
      '</request></GetAccessToken></soap:Body></soap:Envelope>',
  };
}

/** True when a 1.7 JSON answer carries a token (TransactionCode null or "0"). */
export function isJsonToken(answer: HttpAnswer): boolean {
  if (answer.status !== 200) return false;
  try {
    const body = JSON.parse(answer.body) as { Token?: unknown; TransactionCode?: unknown };
    return (
      typeof body.Token === 'string' &&
      body.Token.length > 0 &&
      (body.TransactionCode === null || body.TransactionCode === '0')
    );
  } catch {
    return false;
  }
}

/** True when a SOAP answer carries a non-empty Token element. */
export function isSoapToken(answer: HttpAnswer): boolean {
  return answer.status === 200 && /<(?:\w+:)?Token>[^<]+<\/(?:\w+:)?Token>/.test(answer.body);
}

/** Throws unless a peer answered the static body byte for byte. */
export function checkStatic(who: string, answer: HttpAnswer, expected: string): void {
  if (answer.status !== 200 || answer.body !== expected) {
    throw new Error(
      `${who}: expected the static answer, got HTTP ${answer.status}: ${answer.body.slice(0, 300)}`,
    );
  }
}
