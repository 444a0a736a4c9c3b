/** The SDK kit's cases in run order (docs/verify-client.md); well-formed-request runs first and alone. */
import type { ClientCaseId } from '../types.js';
import { refreshesBeforeExpiry, reusesValidToken } from './cache.js';
import type { ClientCase } from './case.js';
import {
  recoversFromTransientFailures,
  reportsMalformedAnswer,
  timesOutOnHangingProvider,
} from './faults.js';
import { reportsVersionRefused, reportsWrongPassword } from './refusals.js';
import { wellFormedRequest } from './request.js';

export type { ClientCase } from './case.js';

export const CLIENT_CASES: Readonly<Record<ClientCaseId, ClientCase>> = {
  'well-formed-request': wellFormedRequest,
  'reuses-valid-token': reusesValidToken,
  'refreshes-before-expiry': refreshesBeforeExpiry,
  'reports-wrong-password': reportsWrongPassword,
  'reports-version-refused': reportsVersionRefused,
  'recovers-from-transient-failures': recoversFromTransientFailures,
  'times-out-on-hanging-provider': timesOutOnHangingProvider,
  'reports-malformed-answer': reportsMalformedAnswer,
};
