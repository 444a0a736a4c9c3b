import type { Context } from 'hono';
import type { ApiVersion, AuthResult, AuthService, Fault, JournalEntry, Variant } from '../auth/index.js';
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

/** One GetAccessToken call as a transport handles it: where it came in, in which variant, for whom. */
export interface ApiCall {
  c: Context;
  deps: ApiDeps;
  ep: Endpoint;
  variant: Variant;
  /** The path as requested (any case). */
  path: string;
  /** Who the call was for, read from the request before any fault applied (null when unreadable). */
  username: string | null;
}

/** How a call ended: the auth result, the HTTP status sent, and the injected fault that applied. */
export interface CallEnd {
  result: AuthResult;
  httpStatus: number;
  fault?: Pick<Fault, 'id' | 'kind'> | undefined;
}

/** Writes one journal entry for a finished call (its request and answer are kept beside it, src/api/exchange.ts). */
export function journal(call: ApiCall, { result, httpStatus, fault }: CallEnd): void {
  const { c, deps, ep, variant, path, username } = call;
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
  if (fault) entry.fault = { id: fault.id, kind: fault.kind };
  noteJournalEntry(c, deps.auth.journal.record(entry));
}
