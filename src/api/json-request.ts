import type { Context } from 'hono';
import type { ApiVersion, TokenRequest } from '../auth/index.js';
import { ApiRequestError, malformed } from './api-error.js';
import { mediaType, readBodyText } from './body.js';
import { LOWER_NAMES, pascalNames, pickCredentials } from './fields.js';
import { queryCredentials } from './query.js';

/** Keys that could reach Object.prototype if a client library merged the body into an object. */
const DANGEROUS_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

function isJsonType(type: string): boolean {
  return type === 'application/json' || type === 'text/json' || type.endsWith('+json');
}

/**
 * Extracts credentials from a JSON GetAccessToken call (spec "3. GetAccessToken", Requests): 1.6 takes
 * query parameters or a lower-case body, 1.7 only a PascalCase body.
 */
export async function jsonTokenRequest(
  c: Context,
  version: ApiVersion,
  acceptLowercase: boolean,
): Promise<TokenRequest> {
  const text = await readBodyText(c);
  if (text === '') return queryCredentials(c, version, 'a JSON body {"Username":"…","Password":"…"}');
  const type = mediaType(c.req.header('content-type'));
  if (!isJsonType(type)) {
    throw new ApiRequestError(
      'unsupported_media_type',
      `Content-Type "${type || '(none)'}" is not accepted for a JSON body. Send Content-Type: application/json.`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw malformed(`The body is not valid JSON: ${(err as Error).message}.`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw malformed('The JSON body must be an object, e.g. {"Username":"…","Password":"…"}.');
  }
  const obj = parsed as Record<string, unknown>;
  const keys = Object.keys(obj);
  for (const key of keys) {
    if (DANGEROUS_KEYS.has(key)) throw malformed(`The JSON key "${key}" is not accepted.`);
  }
  const get = (key: string): string | null => {
    const v = obj[key];
    if (v === null || v === undefined) return null;
    if (typeof v !== 'string')
      throw malformed(
        `The JSON field "${key}" must be a string (got ${Array.isArray(v) ? 'array' : typeof v}).`,
      );
    return v;
  };
  return pickCredentials(version, keys, get, version === '1.6' ? LOWER_NAMES : pascalNames(acceptLowercase));
}
