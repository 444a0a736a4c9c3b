/**
 * One error hierarchy for the whole emulator. Every error a user can cause carries a stable `code`,
 * an HTTP status and a category; `toProblem()` is the one place that turns it into a JSON answer.
 * Transports with their own formats (XML, SOAP) map the same fields into their envelopes.
 */
export type ErrorCategory = 'user_input' | 'conflict' | 'not_found' | 'delivery' | 'internal';

export interface ErrorDetails {
  /** Field path of the offending input, e.g. `filters.pcc[0]`. */
  path?: string;
  /** What was accepted, listed so the message can be acted on. */
  accepted?: readonly string[];
  [key: string]: unknown;
}

/** Base of every error the emulator raises on purpose. */
export class EmulatorError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    readonly category: ErrorCategory,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
    this.name = new.target.name;
  }

  /** The JSON body the admin API answers with. */
  toProblem(): { error: { code: string; category: ErrorCategory; message: string; details?: ErrorDetails } } {
    const hasDetails = Object.keys(this.details).length > 0;
    return {
      error: {
        code: this.code,
        category: this.category,
        message: this.message,
        ...(hasDetails ? { details: this.details } : {}),
      },
    };
  }
}

/** Bad input: a malformed request, an unknown option value, an invalid file. HTTP 400. */
export class InputError extends EmulatorError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, 400, 'user_input', details);
  }
}

/** A well-formed request that the current state refuses (e.g. voiding a voided booking). HTTP 409. */
export class ConflictError extends EmulatorError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, 409, 'conflict', details);
  }
}

/** A named thing that does not exist. HTTP 404. */
export class NotFoundError extends EmulatorError {
  constructor(code: string, message: string, details: ErrorDetails = {}) {
    super(code, message, 404, 'not_found', details);
  }
}

/** A bug or an unexpected failure. HTTP 500; the message never carries a stack trace. */
export class InternalError extends EmulatorError {
  constructor(message: string, details: ErrorDetails = {}) {
    super('internal_error', message, 500, 'internal', details);
  }
}

/**
 * The data dir cannot keep a change (disk full, file too large, an I/O error): the change was not
 * written, nothing partial was left behind, and it is not applied. HTTP 503: retry once the disk has
 * room (decision 0125).
 */
export class DataDirUnwritableError extends EmulatorError {
  constructor(dataDir: string, cause: string) {
    super(
      'data_dir_unwritable',
      `The data dir ${dataDir} cannot be written (${cause}): the change was not kept. Free space on its disk (or fix its file system) and retry; GET /__admin/health says degraded until a write succeeds.`,
      503,
      'internal',
      { dataDir, cause },
    );
  }
}

/** Wraps anything thrown into an EmulatorError, so no caller ever has to print a raw exception. */
export function toEmulatorError(err: unknown): EmulatorError {
  if (err instanceof EmulatorError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new InternalError(`Unexpected error: ${message}`);
}

/** Formats a zod-style issue path (`['filters', 'pcc', 0]`) as `filters.pcc[0]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : `.${String(part)}`;
  }
  return out === '' ? '(root)' : out;
}
