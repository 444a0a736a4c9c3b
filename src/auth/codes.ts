import type { AuthOutcome, AuthResult, UserIdentity } from './types.js';

/**
 * TransactionCode values. Only 1200 comes from the spec ("Errors"); the real list is not published,
 * so the others are the emulator's choice (decision 0001).
 */
export const TRANSACTION_CODES = {
  malformed_request: '1000',
  payload_too_large: '1001',
  unsupported_media_type: '1002',
  missing_fields: '1100',
  invalid_credentials: '1200',
  version_not_authorized: '1201',
} as const satisfies Partial<Record<AuthOutcome, string>>;

export type FailureOutcome = keyof typeof TRANSACTION_CODES;

/** A failed AuthResult with the code of its outcome. */
export function failure(
  outcome: FailureOutcome,
  message: string,
  warnings: string[] = [],
  user: UserIdentity | null = null,
): AuthResult {
  return {
    outcome,
    token: null,
    expiresAt: null,
    user,
    transactionCode: TRANSACTION_CODES[outcome],
    transactionMessage: message,
    warnings,
  };
}
