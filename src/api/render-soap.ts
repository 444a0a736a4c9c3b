import type { ApiVersion, AuthResult } from '../auth/index.js';
import { textResponse } from './exchange.js';
import { escapeXml, result16String, TEMPURI_NS, withContentType } from './format.js';
import { responseElements } from './render-xml.js';

export type SoapVersion = '1.1' | '1.2';
export type SoapFaultKind = 'Client' | 'Server' | 'VersionMismatch' | 'MustUnderstand';

export const SOAP11_NS = 'http://schemas.xmlsoap.org/soap/envelope/';
export const SOAP12_NS = 'http://www.w3.org/2003/05/soap-envelope';
export const SOAP11_CONTENT_TYPE = 'text/xml; charset=utf-8';
export const SOAP12_CONTENT_TYPE = 'application/soap+xml; charset=utf-8';
/** ASP.NET answers every SOAP Fault with HTTP 500 (SOAP 1.1 §6.2, SOAP 1.2 HTTP binding). */
export const SOAP_FAULT_STATUS = 500;

const XSD_DECLS =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

function envelope(soap: SoapVersion, body: string, header = ''): string {
  const ns = soap === '1.1' ? SOAP11_NS : SOAP12_NS;
  return `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="${ns}" ${XSD_DECLS}>${header}<soap:Body>${body}</soap:Body></soap:Envelope>`;
}

/** What else a Fault carries besides its kind and message. */
export interface SoapFaultOptions {
  /** HTTP status (default SOAP_FAULT_STATUS; 405 for a method other than GET and POST). */
  status?: number;
  /** SOAP 1.2: the header block a MustUnderstand Fault names in a NotUnderstood header. */
  notUnderstood?: { name: string; ns: string };
  /** False: no detail element at all, as ASMX writes a header fault (default true). */
  detail?: boolean;
}

/** SOAP 1.2 part 1 §5.4.8: `<soap:NotUnderstood qname="…"/>` in the Fault's Header. */
function notUnderstoodHeader(h: { name: string; ns: string }): string {
  const qname = h.ns ? `q:${escapeXml(h.name)}" xmlns:q="${escapeXml(h.ns)}` : escapeXml(h.name);
  return `<soap:Header><soap:NotUnderstood qname="${qname}"/></soap:Header>`;
}

function contentType(soap: SoapVersion): string {
  return soap === '1.1' ? SOAP11_CONTENT_TYPE : SOAP12_CONTENT_TYPE;
}

/** The GetAccessToken answer: 1.6 a string result, 1.7 a GetAccessTokenResponse (null fields omitted). */
export function renderSoap(
  soap: SoapVersion,
  version: ApiVersion,
  result: AuthResult,
  headers: Record<string, string>,
): Response {
  const inner =
    version === '1.6'
      ? escapeXml(result16String(result))
      : // Nulls are omitted, as XmlSerializer does for null references (minOccurs="0" in the WSDL).
        responseElements(result, null);
  const body = `<GetAccessTokenResponse xmlns="${TEMPURI_NS}"><GetAccessTokenResult>${inner}</GetAccessTokenResult></GetAccessTokenResponse>`;
  return textResponse(envelope(soap, body), {
    status: 200,
    headers: withContentType(headers, contentType(soap)),
  });
}

/**
 * A SOAP Fault in the request's envelope version: 1.1 `faultcode` soap:Client/soap:Server, 1.2
 * `Code/Value` soap:Sender/soap:Receiver (VersionMismatch and MustUnderstand keep their names in
 * both); the TransactionCode travels in the detail.
 */
export function renderSoapFault(
  soap: SoapVersion,
  kind: SoapFaultKind,
  message: string,
  transactionCode: string | null,
  headers: Record<string, string>,
  options: SoapFaultOptions = {},
): Response {
  const code = transactionCode
    ? `<TransactionCode xmlns="${TEMPURI_NS}">${escapeXml(transactionCode)}</TransactionCode>`
    : '';
  const withDetail = options.detail !== false;
  let fault: string;
  if (soap === '1.1') {
    const detail = withDetail ? `<detail>${code}</detail>` : '';
    fault = `<soap:Fault><faultcode>soap:${kind}</faultcode><faultstring>${escapeXml(message)}</faultstring>${detail}</soap:Fault>`;
  } else {
    const value = kind === 'Client' ? 'Sender' : kind === 'Server' ? 'Receiver' : kind;
    const detail = withDetail ? `<soap:Detail>${code}</soap:Detail>` : '';
    fault = `<soap:Fault><soap:Code><soap:Value>soap:${value}</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${escapeXml(message)}</soap:Text></soap:Reason>${detail}</soap:Fault>`;
  }
  const header = soap === '1.2' && options.notUnderstood ? notUnderstoodHeader(options.notUnderstood) : '';
  return textResponse(envelope(soap, fault, header), {
    status: options.status ?? SOAP_FAULT_STATUS,
    headers: withContentType(headers, contentType(soap)),
  });
}
