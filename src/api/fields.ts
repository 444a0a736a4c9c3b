import type { ApiVersion, TokenRequest } from '../auth/index.js';

/** How a variant names the two credential fields, and whether another casing is tolerated. */
export interface FieldNames {
  username: string;
  password: string;
  /** The other casing (`username` for `Username`), accepted only when `acceptAlternate`. */
  alternate?: { username: string; password: string };
  acceptAlternate: boolean;
}

const PASCAL = { username: 'Username', password: 'Password' } as const;
const LOWER = { username: 'username', password: 'password' } as const;
const PASCAL_NAMES: Readonly<Record<'strict' | 'lenient', FieldNames>> = {
  strict: { ...PASCAL, alternate: LOWER, acceptAlternate: false },
  lenient: { ...PASCAL, alternate: LOWER, acceptAlternate: true },
};

/** 1.7 bodies (JSON, XML, SOAP `request`): PascalCase; lower-case only with --accept-lowercase-keys. */
export function pascalNames(acceptLowercase: boolean): FieldNames {
  return acceptLowercase ? PASCAL_NAMES.lenient : PASCAL_NAMES.strict;
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
  let hints: string[] | undefined;
  const pick = (canonical: string, alternate: string | undefined): string | null => {
    if (keys.includes(canonical)) return get(canonical);
    const other = keys.find((k) => k.toLowerCase() === canonical.toLowerCase());
    if (other === undefined) return null;
    if (names.acceptAlternate && other === alternate) {
      warnings.push(`non_canonical_casing: "${other}" accepted as "${canonical}"`);
      return get(other);
    }
    warnings.push(`non_canonical_casing: "${other}" is not "${canonical}"`);
    hints ??= [];
    hints.push(`"${other}" was sent but field names are case-sensitive: use "${canonical}".`);
    return null;
  };
  const username = pick(names.username, names.alternate?.username);
  const password = pick(names.password, names.alternate?.password);
  const req: TokenRequest = { version, username, password, warnings };
  if (hints) req.missingHint = hints.join(' ');
  return req;
}
