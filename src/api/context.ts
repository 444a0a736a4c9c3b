import type { Context } from 'hono';
import type { ApiVersion, AuthResult, AuthService, JournalEntry, Variant } from '../auth/index.js';
import type { Settings } from '../config/index.js';
import type { Logger } from '../log.js';
import { noteJournalEntry } from './exchange.js';
import { isoInstant } from './format.js';

/** What the transports need from the emulator. */
export interface ApiDeps {
  auth: AuthService;
  settings: Settings;
  log: Logger;
  /** Emulator time, for the journal. */
  now(): Date;
}

/** Which endpoint a request hit. */
export interface Endpoint {
  version: ApiVersion;
  kind: 'json' | 'xml' | 'soap';
  service: 'FlightService' | 'AuthService';
  /** Canonical spelling, e.g. `/FlightService.json/GetAccessToken` (paths match case-insensitively). */
  path: string;
}

/** The X-API-Version string of a version (settings `apiVersion16` / `apiVersion17`). */
export function versionString(deps: ApiDeps, version: ApiVersion): string {
  return version === '1.6' ? deps.settings.apiVersion16 : deps.settings.apiVersion17;
}

/** Writes one journal entry for a finished call (its request and answer are kept beside it, src/api/exchange.ts). */
export function journal(
  c: Context,
  deps: ApiDeps,
  ep: Endpoint,
  variant: Variant,
  path: string,
  username: string | null,
  result: AuthResult,
  httpStatus: number,
  fault?: { id: string; kind: string },
): void {
  // Built once here, in the order admin answers show; the journal gives it its id.
  const entry: JournalEntry = {
    id: '',
    at: isoInstant(deps.now()),
    version: ep.version,
    variant,
    path,
    username,
    outcome: result.outcome,
    transactionCode: result.transactionCode,
    httpStatus,
    warnings: result.warnings,
  };
  if (fault) entry.fault = fault;
  noteJournalEntry(c, deps.auth.journal.record(entry));
}
