import type { ApiVersion, AuthResult } from '../auth/index.js';
import { textResponse } from './exchange.js';
import { escapeXml, result16String, TEMPURI_NS, withContentType, XSI_NS } from './format.js';
import { responseObject } from './render-json.js';

export const XML_CONTENT_TYPE = 'application/xml; charset=utf-8';
/** 1.6 XML answers a serialized string, as a .NET service returning `string` does. */
export const SERIALIZATION_NS = 'http://schemas.microsoft.com/2003/10/Serialization/';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>\n';

/** The GetAccessTokenResponse fields as XML elements; null fields carry `i:nil="true"`. */
export function responseElements(result: AuthResult, nilPrefix: string | null): string {
  let out = '';
  for (const [name, value] of Object.entries(responseObject(result))) {
    if (value === null) {
      if (nilPrefix !== null) out += `<${name} ${nilPrefix}:nil="true"/>`;
    } else out += `<${name}>${escapeXml(String(value))}</${name}>`;
  }
  return out;
}

/** Renders a result as the XML variant of its version answers it. */
export function renderXml(
  version: ApiVersion,
  result: AuthResult,
  status: number,
  headers: Record<string, string>,
): Response {
  const body =
    version === '1.6'
      ? `${DECLARATION}<string xmlns="${SERIALIZATION_NS}">${escapeXml(result16String(result))}</string>`
      : `${DECLARATION}<GetAccessTokenResponse xmlns="${TEMPURI_NS}" xmlns:i="${XSI_NS}">${responseElements(result, 'i')}</GetAccessTokenResponse>`;
  return textResponse(body, { status, headers: withContentType(headers, XML_CONTENT_TYPE) });
}
