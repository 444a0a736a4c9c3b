import type { ApiVersion, AuthResult } from '../auth/index.js';

/** Target namespace of both services and their XML answers (ASP.NET's default; decision 0002). */
export const TEMPURI_NS = 'http://tempuri.org/';
export const XSI_NS = 'http://www.w3.org/2001/XMLSchema-instance';
export const XSD_NS = 'http://www.w3.org/2001/XMLSchema';

// Characters XML 1.0 cannot carry at all, even escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVALID_XML_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g;
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

/** Escapes text for an XML element or attribute value. */
export function escapeXml(text: string): string {
  return text.replace(INVALID_XML_CHARS, '\ufffd').replace(/[&<>"']/g, (ch) => ESCAPES[ch] as string);
}

/**
 * Remembers the last instant formatted: every call within one millisecond (and every call on a
 * stopped manual clock) formats the same instant, so under load most calls skip the formatting.
 */
function lastInstantMemo(format: (date: Date) => string): (date: Date) => string {
  let lastMs = Number.NaN;
  let last = '';
  return (date) => {
    const ms = date.getTime();
    // An invalid date (NaN) never matches, so it reaches `format` and fails there as before.
    if (ms !== lastMs) {
      last = format(date);
      lastMs = ms;
    }
    return last;
  };
}

/** UTC instant as .NET serializes it: ISO 8601 with `Z`, fractions only when not zero. */
export const formatInstant = lastInstantMemo((date) => date.toISOString().replace('.000Z', 'Z'));

/** `Date#toISOString` (the journal's `at`), remembered for the last instant. */
export const isoInstant = lastInstantMemo((date) => date.toISOString());

/** The 1.6 answer string: the token, or "<code> - <message>" (spec "Errors"). */
export function result16String(result: AuthResult): string {
  return result.token ?? `${result.transactionCode} - ${result.transactionMessage}`;
}

/** Header-safe text: printable ASCII as is, anything else percent-encoded (UTF-8). */
function headerValue(text: string): string {
  return /^[\x20-\x7e]*$/.test(text) ? text : encodeURIComponent(text);
}

/** The three headers every answer carries (spec "3. GetAccessToken", Response headers). */
export function apiHeaders(
  version: ApiVersion,
  versionString: string,
  result: AuthResult | null,
): Record<string, string> {
  const headers: Record<string, string> = { 'X-API-Version': versionString };
  void version;
  if (result?.user) {
    headers['X-API-User-IDWeb'] = String(result.user.idWeb);
    headers['X-API-User-WebDescription'] = headerValue(result.user.webDescription);
  }
  return headers;
}

/** `headers` and a Content-Type, as a new object. */
export function withContentType(headers: Record<string, string>, type: string): Record<string, string> {
  return { ...headers, 'Content-Type': type };
}
