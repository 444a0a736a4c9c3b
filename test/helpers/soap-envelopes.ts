/** Raw SOAP envelopes as ASP.NET's generated proxies (and the help page samples) write them. */
export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const ACTION = 'http://tempuri.org/GetAccessToken';

const XSD =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** A full envelope around `body` (prefix `soap` for 1.1, `soap12` for 1.2, as ASP.NET samples show). */
export function envelope(soap: '1.1' | '1.2', body: string): string {
  const [prefix, ns] = soap === '1.1' ? ['soap', SOAP11_NS] : ['soap12', SOAP12_NS];
  return `<?xml version="1.0" encoding="utf-8"?>\n<${prefix}:Envelope ${XSD} xmlns:${prefix}="${ns}">\n  <${prefix}:Body>\n    ${body}\n  </${prefix}:Body>\n</${prefix}:Envelope>`;
}

/** The 1.6 operation element (FlightService.asmx). */
export const op16 = (username: string, password: string) =>
  `<GetAccessToken xmlns="http://tempuri.org/"><username>${username}</username><password>${password}</password></GetAccessToken>`;

/** The 1.7 operation element (AuthService.asmx). */
export const op17 = (username: string, password: string) =>
  `<GetAccessToken xmlns="http://tempuri.org/"><request><Username>${username}</Username><Password>${password}</Password></request></GetAccessToken>`;

/** POST headers a .NET client sends: SOAPAction for 1.1, the action parameter for 1.2. */
export function soapHeaders(soap: '1.1' | '1.2'): Record<string, string> {
  return soap === '1.1'
    ? { 'content-type': 'text/xml; charset=utf-8', SOAPAction: `"${ACTION}"` }
    : { 'content-type': `application/soap+xml; charset=utf-8; action="${ACTION}"` };
}

/** POSTs a raw envelope. */
export function postEnvelope(
  url: string,
  soap: '1.1' | '1.2',
  xml: string,
  headers: Record<string, string> = soapHeaders(soap),
): Promise<Response> {
  return fetch(url, { method: 'POST', headers, body: xml, redirect: 'manual' });
}
