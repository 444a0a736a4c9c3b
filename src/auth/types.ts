import type { AuthOutcome } from '../model/constants.js';

export { API_VERSIONS, type ApiVersion, VARIANTS, type Variant } from '../model/constants.js';

/** What the user record tells a client about itself once authenticated. */
export interface UserIdentity {
  username: string;
  idWeb: number;
  webDescription: string;
}

export type { AuthOutcome } from '../model/constants.js';

/**
 * The plain answer of the GetAccessToken core, before any transport renders it.
 * `user` is set only when the credentials were verified (it drives the X-API-User-* headers).
 */
export interface AuthResult {
  outcome: AuthOutcome;
  token: string | null;
  expiresAt: Date | null;
  user: UserIdentity | null;
  /** null on success (spec "GetAccessTokenResponse (API 1.7)"). */
  transactionCode: string | null;
  transactionMessage: string | null;
  warnings: string[];
}
