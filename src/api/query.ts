import type { Context } from 'hono';
import type { ApiVersion, TokenRequest } from '../auth/index.js';
import { LOWER_NAMES, pickCredentials } from './fields.js';

/**
 * Credentials from the query string, for a call without a body. 1.6 JSON and XML accept
 * `username`/`password` there; 1.7 does not (spec "3. GetAccessToken"), and says so in the answer.
 */
export function queryCredentials(c: Context, version: ApiVersion, bodyHint: string): TokenRequest {
  const query = c.req.query();
  const keys = Object.keys(query);
  if (version === '1.6') return pickCredentials(version, keys, (k) => query[k] ?? null, LOWER_NAMES);
  const used = keys.some((k) => ['username', 'password'].includes(k.toLowerCase()));
  return {
    version,
    username: null,
    password: null,
    warnings: used ? ['query_mode_not_supported: API 1.7 ignores username/password query parameters'] : [],
    missingHint: used
      ? `API 1.7 does not accept query-string parameters: send ${bodyHint}.`
      : `The request has no body: send ${bodyHint}.`,
  };
}
