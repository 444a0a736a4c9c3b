/** API versions that expose GetAccessToken (spec "Versioning"). */
export const API_VERSIONS = ['1.6', '1.7'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];

/** Transport variants as the journal and fault filters name them (spec "3. GetAccessToken"). */
export const VARIANTS = ['json', 'xml', 'soap11', 'soap12'] as const;
export type Variant = (typeof VARIANTS)[number];

/** What the user record tells a client about itself once authenticated. */
export interface UserIdentity {
  username: string;
  idWeb: number;
  webDescription: string;
}

/** Why a call ended the way it did; journal `outcome` values. */
export const AUTH_OUTCOMES = [
  'ok',
  'invalid_credentials',
  'version_not_authorized',
  'missing_fields',
  'malformed_request',
  'payload_too_large',
  'unsupported_media_type',
  'fault',
] as const;
export type AuthOutcome = (typeof AUTH_OUTCOMES)[number];

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
