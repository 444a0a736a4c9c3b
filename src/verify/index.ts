/** The receiver conformance kit (`reportbo-emulator verify`, docs/verify.md). */
import { resolveOptions, type VerifyOptions } from './options.js';
import { runVerify } from './runner.js';
import type { VerifyReport } from './types.js';

export { CASES } from './cases/index.js';
export { resolveOptions, type VerifyOptions } from './options.js';
export { runVerify } from './runner.js';
export {
  CASE_IDS,
  type CaseId,
  type CaseResult,
  type CaseStatus,
  type Evidence,
  type VerifyListener,
  type VerifyReport,
} from './types.js';

/**
 * Runs the conformance kit against a receiver and answers the report. Bad options reject with an
 * InputError (code e.g. `verify_options_invalid`, `http_not_allowed`, `ca_file_unreadable`); what
 * the receiver does never rejects: it is a failed case.
 */
export async function verifyReceiver(options: VerifyOptions): Promise<VerifyReport> {
  const { listener, ...rest } = options;
  return runVerify(await resolveOptions(rest), listener);
}
