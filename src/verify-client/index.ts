/** The SDK conformance kit (`reportbo-emulator verify-client`, docs/verify-client.md). */
import { type ClientOptions, resolveClientOptions } from './options.js';
import { runVerifyClient } from './runner.js';
import type { ClientReport } from './types.js';

export type { ClientOptions } from './options.js';
export {
  CLIENT_CASE_IDS,
  type ClientCaseId,
  type ClientCaseResult,
  type ClientListener,
  type ClientReport,
} from './types.js';

/**
 * Runs the SDK conformance kit: the harness `exec` once per case against a fresh emulator, judged
 * from what it did. Bad options and a harness that cannot keep its contract (not found, prints
 * nothing, never exits) reject with an InputError; what the SDK does never rejects: it is a case.
 */
export async function verifyClient(options: ClientOptions): Promise<ClientReport> {
  const { listener, ...rest } = options;
  return runVerifyClient(resolveClientOptions(rest), listener);
}
