import type { ApiVersion, AuthResult } from '../auth/index.js';
import { textResponse } from './exchange.js';
import { formatInstant, result16String, withContentType } from './format.js';

/** 1.6 answers `text/json` (spec "3. GetAccessToken", Responses). */
export const JSON16_CONTENT_TYPE = 'text/json; charset=utf-8';
export const JSON17_CONTENT_TYPE = 'application/json; charset=utf-8';

/** GetAccessTokenResponse as a plain object, fields in the spec's order (1.7 JSON). */
export function responseObject(result: AuthResult): Record<string, unknown> {
  return {
    Token: result.token,
    ExpiresAt: result.expiresAt ? formatInstant(result.expiresAt) : null,
    IDWeb: result.user?.idWeb ?? null,
    WebDescription: result.user?.webDescription ?? null,
    TransactionCode: result.transactionCode,
    TransactionMessage: result.transactionMessage,
  };
}

/** Renders a result as the JSON variant of its version answers it. */
export function renderJson(
  version: ApiVersion,
  result: AuthResult,
  status: number,
  headers: Record<string, string>,
): Response {
  const body =
    version === '1.6' ? JSON.stringify(result16String(result)) : JSON.stringify(responseObject(result));
  const type = version === '1.6' ? JSON16_CONTENT_TYPE : JSON17_CONTENT_TYPE;
  return textResponse(body, { status, headers: withContentType(headers, type) });
}
