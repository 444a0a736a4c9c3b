import type { ApiVersion, TokenRequest } from '../auth/index.js';

/** How a variant names the two credential fields, and whether another casing is tolerated. */
export interface FieldNames {
  username: string;
  password: string;
  /** The other casing (`username` for `Username`), accepted only when `acceptAlternate`. */
  alternate?: { username: string; password: string };
  acceptAlternate: boolean;
}

/** 1.7 bodies (JSON, XML, SOAP `request`): PascalCase; lower-case only with --accept-lowercase-keys. */
export function pascalNames(acceptLowercase: boolean): FieldNames {
  return {
    username: 'Username',
    password: 'Password',
    alternate: { username: 'username', password: 'password' },
    acceptAlternate: acceptLowercase,
  };
}

/** 1.6 JSON body, query string and SOAP parameters: lower-case (spec "3. GetAccessToken", Requests). */
export const LOWER_NAMES: FieldNames = { username: 'username', password: 'password', acceptAlternate: false };

/**
 * Builds a TokenRequest from a name → value lookup. A field present only in another casing is taken
 * (with a warning) when tolerated, otherwise it counts as missing and the hint names the casing.
 */
export function pickCredentials(
  version: ApiVersion,
  keys: readonly string[],
  get: (key: string) => string | null,
  names: FieldNames,
  warnings: string[] = [],
): TokenRequest {
  const hints: string[] = [];
  const pick = (canonical: string, alternate: string | undefined): string | null => {
    if (keys.includes(canonical)) return get(canonical);
    const other = keys.find((k) => k.toLowerCase() === canonical.toLowerCase());
    if (other === undefined) return null;
    if (names.acceptAlternate && other === alternate) {
      warnings.push(`non_canonical_casing: "${other}" accepted as "${canonical}"`);
      return get(other);
    }
    warnings.push(`non_canonical_casing: "${other}" is not "${canonical}"`);
    hints.push(`"${other}" was sent but field names are case-sensitive: use "${canonical}".`);
    return null;
  };
  const username = pick(names.username, names.alternate?.username);
  const password = pick(names.password, names.alternate?.password);
  return {
    version,
    username,
    password,
    warnings,
    ...(hints.length ? { missingHint: hints.join(' ') } : {}),
  };
}
