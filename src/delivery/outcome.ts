import type { AttemptOutcome } from '../model/constants.js';

export { ATTEMPT_OUTCOMES, type AttemptOutcome } from '../model/constants.js';

/** Outcomes that are the emulator's doing, not the receiver's: they do not count toward MAX_ATTEMPTS. */
export const UNCOUNTED_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set(['interrupted', 'emulator_error']);

/** What the sender reports for one POST. It never throws: failures are data. */
export interface SendResult {
  outcome: AttemptOutcome;
  /** Present once a status line was received (also for resets after the headers). */
  statusCode?: number;
  /** Human-readable cause, e.g. `TLS: certificate has expired (CERT_HAS_EXPIRED)`. */
  message: string;
  /** The first RESPONSE_BODY_CAP_BYTES of the response body, as UTF-8 text. */
  responseBody?: string;
  /** The response headers (lower-case names, repeated ones joined by ", "), up to 4 KiB; absent before a status line. */
  responseHeaders?: Record<string, string>;
  /** Wall-clock duration of the attempt in milliseconds. */
  durationMs: number;
}

/** Where a request was when it failed; used in messages so a user knows which step broke. */
export type SendPhase = 'connect' | 'headers' | 'body';

const PHASE_TEXT: Record<SendPhase, string> = {
  connect: 'while connecting',
  headers: 'before the response headers',
  body: 'while reading the response body',
};

// The setting is named in every form a user may have met it (flag, env, scenario, option): this text
// is shared by every attempt and does not know which one the emulator's user gave.
const UNTRUSTED_ISSUER =
  'certificate issuer not trusted (trust its CA with the caFile setting: --ca-file, REPORTBO_CA_FILE, settings.caFile in a scenario, or POST /__admin/trust)';

const TLS_CAUSES: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  CERT_HAS_EXPIRED: 'certificate expired',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'hostname mismatch',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED_ISSUER,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED_ISSUER,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED_ISSUER,
  CERT_REVOKED: 'certificate revoked',
};

const PROTOCOL_VERSION = /protocol.version|unsupported.protocol|wrong.version|no.protocols|version.too.low/i;
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME', 'EAI_NODATA']);
const CONNECT_CODES = new Set(['ECONNREFUSED', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'ETIMEDOUT']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * undici's own error codes that this table reads (undici is pinned to one version in package.json;
 * src/delivery/undici-canary.test.ts fails when one of them is no longer what undici reports).
 */
export const UNDICI_CODES = {
  /** The receiver closed the connection (FIN) before the response was complete. */
  socket: 'UND_ERR_SOCKET',
  /** The body was shorter or longer than its Content-Length. */
  lengthMismatch: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  headersOverflow: 'UND_ERR_HEADERS_OVERFLOW',
  connectTimeout: 'UND_ERR_CONNECT_TIMEOUT',
  /** A request undici refuses to build (e.g. a header value with a control character). */
  invalidArgument: 'UND_ERR_INVALID_ARG',
} as const;

/** What is known of an attempt when its error arrives: the error and where the attempt was. */
export interface FailureFacts {
  /** The error's code (Node's errno code, undici's `UND_ERR_…`, OpenSSL's), '' when none. */
  code: string;
  /** The error's class name (`HTTPParserError` for undici's parser errors). */
  name: string;
  message: string;
  /** Node's reason of a hostname mismatch. */
  reason?: string | undefined;
  hostname?: string | undefined;
  phase: SendPhase;
  /** `host[:port]` of the receiver. */
  target: string;
  /** Present once the status line came back. */
  statusCode?: number | undefined;
  /** Body bytes received so far, and the Content-Length the response declared. */
  bodyBytes?: number | undefined;
  declaredLength?: string | undefined;
}

/** One row of the classification: the failures it matches, the outcome and the message it gives. */
interface FailureRow {
  outcome: AttemptOutcome;
  when(f: FailureFacts): boolean;
  message(f: FailureFacts): string;
}

/** The parser failure an error stands for, named as Node's HTTP parser names it, or undefined. */
function parserFailure(f: FailureFacts): { message: string; code: string } | undefined {
  if (f.code.startsWith('HPE_')) return { message: f.message, code: f.code };
  if (f.code === UNDICI_CODES.socket && f.message === 'bad response')
    return { message: 'Parse Error: unexpected response', code: 'HPE_INVALID_CONSTANT' };
  if (f.code === UNDICI_CODES.headersOverflow)
    return { message: 'Parse Error: Header overflow', code: 'HPE_HEADER_OVERFLOW' };
  if (f.name === 'HTTPParserError') {
    // "Response does not match the HTTP/1.1 protocol (Expected HTTP/…)" → "Parse Error: Expected HTTP/…";
    // undici leaves `code` unset, so the one code Node gives for a non-HTTP answer is restored.
    const reason = /\((.*)\)$/.exec(f.message)?.[1] ?? f.message;
    const code =
      f.code || (reason.startsWith('Expected HTTP/') ? 'HPE_INVALID_CONSTANT' : 'HPE_INVALID_RESPONSE');
    return { message: `Parse Error: ${reason}`, code };
  }
  return undefined;
}

const sslReason = (f: FailureFacts) => /SSL routines:[^:]*:([^:]+)/.exec(f.message)?.[1]?.trim();
const withStatus = (f: FailureFacts) => (f.statusCode === undefined ? '' : ` (status ${f.statusCode})`);

/**
 * How every failed attempt is classified: the first row that matches gives the outcome and the
 * message, whichever library reported the error (undici's codes and Node's are both read here, and
 * nowhere else). A new outcome label is one entry in ATTEMPT_OUTCOMES and, when an error produces
 * it, one row here.
 */
const FAILURE_TABLE: readonly FailureRow[] = [
  {
    // A body cut short by a close: which of the two undici reports depends on when it reads the close.
    outcome: 'invalid_response',
    when: (f) =>
      f.phase === 'body' && (f.code === UNDICI_CODES.lengthMismatch || f.code === UNDICI_CODES.socket),
    message: (f) => {
      const promised =
        f.declaredLength === undefined ? '' : ` of the ${f.declaredLength} its Content-Length promised`;
      return `invalid HTTP response: the receiver closed the connection after ${f.bodyBytes ?? 0} body bytes${promised}, before the body was complete${withStatus(f)}`;
    },
  },
  {
    outcome: 'invalid_response',
    when: (f) => f.code === UNDICI_CODES.lengthMismatch,
    message: () =>
      'invalid HTTP response: its Content-Length does not match its body (two different Content-Length headers, or a body cut short)',
  },
  {
    outcome: 'invalid_response',
    when: (f) => f.code === UNDICI_CODES.invalidArgument,
    message: (f) => `could not send: ${f.message}`,
  },
  {
    outcome: 'tls_error',
    when: (f) => TLS_CAUSES[f.code] !== undefined,
    message: (f) => {
      const detail = f.code === 'ERR_TLS_CERT_ALTNAME_INVALID' && f.reason ? `: ${f.reason}` : '';
      return `TLS: ${TLS_CAUSES[f.code]}${detail} (${f.code}) at ${f.target}`;
    },
  },
  {
    // OpenSSL handshake failures arrive as EPROTO with the reason inside the message.
    outcome: 'tls_error',
    when: (f) => PROTOCOL_VERSION.test(f.code) || PROTOCOL_VERSION.test(sslReason(f) ?? ''),
    message: (f) =>
      `TLS: protocol version refused: the receiver does not offer TLS 1.2 or higher (${sslReason(f) ?? f.code}) at ${f.target}`,
  },
  {
    outcome: 'tls_error',
    when: (f) =>
      sslReason(f) !== undefined ||
      f.code.startsWith('ERR_SSL_') ||
      f.code.startsWith('ERR_TLS_') ||
      f.code.startsWith('CERT_'),
    message: (f) => `TLS: ${sslReason(f) ?? f.message} (${f.code}) at ${f.target}`,
  },
  {
    outcome: 'dns_error',
    when: (f) => DNS_CODES.has(f.code),
    message: (f) => `DNS: cannot resolve ${f.hostname ?? f.target} (${f.code})`,
  },
  {
    outcome: 'connect_refused',
    when: (f) =>
      f.phase === 'connect' && (CONNECT_CODES.has(f.code) || f.code === UNDICI_CODES.connectTimeout),
    message: (f) => {
      const what = f.code === 'ECONNREFUSED' ? 'connection refused' : 'cannot connect';
      const code = f.code === UNDICI_CODES.connectTimeout ? 'ETIMEDOUT' : f.code;
      return `${what} by ${f.target} (${code})`;
    },
  },
  {
    outcome: 'invalid_response',
    when: (f) => parserFailure(f) !== undefined,
    message: (f) => {
      const p = parserFailure(f)!;
      return `invalid HTTP response ${PHASE_TEXT[f.phase]}: ${p.message} (${p.code})`;
    },
  },
  {
    // undici's "other side closed" is Node's ECONNRESET ("socket hang up").
    outcome: 'reset',
    when: (f) => RESET_CODES.has(f.code) || f.code === UNDICI_CODES.socket || f.message === 'aborted',
    message: (f) => {
      const after =
        f.statusCode === undefined
          ? PHASE_TEXT[f.phase]
          : `after the response headers (status ${f.statusCode})`;
      const code = f.code === UNDICI_CODES.socket ? 'ECONNRESET' : f.code || 'aborted';
      return `connection reset ${after} (${code})`;
    },
  },
  {
    outcome: 'connect_refused',
    when: (f) => f.phase === 'connect',
    message: (f) => `${f.message}${f.code ? ` (${f.code})` : ''} ${PHASE_TEXT[f.phase]}`,
  },
];

/** What an unmatched failure after the connection was up is: an answer that was not one. */
const FALLBACK: FailureRow = {
  outcome: 'invalid_response',
  when: () => true,
  message: (f) => `${f.message}${f.code ? ` (${f.code})` : ''} ${PHASE_TEXT[f.phase]}`,
};

/** Classifies one failed attempt by FAILURE_TABLE: its outcome and a message naming the cause. */
export function classifyFailure(f: FailureFacts): Omit<SendResult, 'durationMs'> {
  const row = FAILURE_TABLE.find((r) => r.when(f)) ?? FALLBACK;
  return {
    outcome: row.outcome,
    message: row.message(f),
    ...(f.statusCode === undefined ? {} : { statusCode: f.statusCode }),
  };
}

/** The facts of `err` at `phase` (the fields of FailureFacts an error carries). */
export function failureFacts(
  err: Error & { code?: unknown; reason?: string; hostname?: string },
  phase: SendPhase,
  target: string,
  statusCode?: number,
): FailureFacts {
  return {
    code: typeof err.code === 'string' ? err.code : '',
    name: err.name,
    message: err.message,
    reason: err.reason,
    hostname: err.hostname,
    phase,
    target,
    statusCode,
  };
}

/** Classifies a network, TLS or parser error at `phase` (FAILURE_TABLE). */
export function classifyError(
  err: Error & { code?: unknown; reason?: string; hostname?: string },
  phase: SendPhase,
  target: string,
  statusCode?: number,
): Omit<SendResult, 'durationMs'> {
  return classifyFailure(failureFacts(err, phase, target, statusCode));
}

/** The message of an attempt that got a complete response. */
export function statusMessage(statusCode: number, location?: string): string {
  if (statusCode === 200) return 'receiver answered 200 (acknowledged)';
  const redirect = location ? `; redirect to ${location} not followed` : '';
  // Spec "1. Notification delivery (outbound from the service)" rule 2: any status other than exactly 200,
  // other 2xx included, is a failure.
  return `receiver answered ${statusCode}; only 200 acknowledges${redirect}`;
}
