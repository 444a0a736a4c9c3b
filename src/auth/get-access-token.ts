import { failure } from './codes.js';
import type { TokenStore } from './tokens.js';
import type { ApiVersion, AuthResult } from './types.js';
import type { UserStore } from './users.js';

/** Credentials a transport extracted from a request, plus what it noticed on the way (casing, modes). */
export interface TokenRequest {
  version: ApiVersion;
  username: string | null;
  password: string | null;
  /** Set by the transport when fields are absent for a reason worth naming (casing, query mode). */
  missingHint?: string;
  warnings: string[];
}

const INVALID_CREDENTIALS = 'Invalid username or password.';

/**
 * The GetAccessToken operation (spec "3. GetAccessToken", "Authentication"): checks the credentials and
 * the user's version authorization, then issues a token. Answers a plain result, never an envelope.
 */
export function getAccessToken(users: UserStore, tokens: TokenStore, req: TokenRequest): AuthResult {
  const warnings = req.warnings;
  const noUsername = req.username === null || req.username === '';
  const noPassword = req.password === null || req.password === '';
  if (noUsername || noPassword) {
    const missing =
      noUsername && noPassword ? ['Username', 'Password'] : [noUsername ? 'Username' : 'Password'];
    const names = req.version === '1.6' ? missing.map((m) => m.toLowerCase()) : missing;
    const hint = req.missingHint ? ` ${req.missingHint}` : '';
    return failure('missing_fields', `Missing required field(s): ${names.join(', ')}.${hint}`, warnings);
  }
  const user = users.get(req.username as string);
  // Same code and message for unknown user and wrong password: the provider only documents 1200.
  if (!user || user.password !== req.password)
    return failure('invalid_credentials', INVALID_CREDENTIALS, warnings);
  const identity = { username: user.username, idWeb: user.idWeb, webDescription: user.webDescription };
  if (!user.versions.includes(req.version)) {
    // Spec "Authentication" 3: version enforcement is active from API 1.7 on; 1.6 only notes it.
    if (req.version === '1.7') {
      return failure(
        'version_not_authorized',
        `User "${user.username}" is not authorized for API ${req.version} (authorized: ${user.versions.join(', ')}). Request access from your account manager before switching endpoints.`,
        warnings,
        identity,
      );
    }
    warnings.push(`user_not_listed_for_${req.version}: API ${req.version} does not enforce versions`);
  }
  const issued = tokens.issue(user.username, req.version);
  return {
    outcome: 'ok',
    token: issued.token,
    expiresAt: issued.expiresAt,
    user: identity,
    transactionCode: null,
    transactionMessage: null,
    warnings,
  };
}
