/**
 * How one delivery attempt ended (docs/admin-api.md "Notifications"). Only `http_status` 200 is a
 * success. `interrupted`: the emulator stopped while the attempt ran (decision 0043); not the
 * receiver's failure, so it does not count toward the 5 attempts.
 */
export const ATTEMPT_OUTCOMES = [
  'http_status',
  'timeout',
  'connect_refused',
  'dns_error',
  'tls_error',
  'reset',
  'invalid_response',
  'interrupted',
  // Never the receiver's doing: an outage injected with POST /__admin/outages; nothing was sent.
  'simulated_outage',
  // The emulator died (kill -9, crash) while the attempt was in flight; found in a data dir at the
  // restart (decision 0080). The receiver may have got it, so unlike `interrupted` it counts toward
  // the 5 attempts; delivery is at-least-once.
  'interrupted_by_crash',
] as const;
export type AttemptOutcome = (typeof ATTEMPT_OUTCOMES)[number];

/** Outcomes that are the emulator's doing, not the receiver's: they do not count toward MAX_ATTEMPTS. */
export const UNCOUNTED_OUTCOMES: ReadonlySet<AttemptOutcome> = new Set(['interrupted']);

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
export const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Maps a Node network/TLS/parser error to an attempt outcome with a message naming the cause. */
export function classifyError(
  err: NodeJS.ErrnoException & { reason?: string; hostname?: string },
  phase: SendPhase,
  target: string,
  statusCode?: number,
): Omit<SendResult, 'durationMs'> {
  const code = err.code ?? '';
  const status = statusCode === undefined ? {} : { statusCode };
  const tlsCause = TLS_CAUSES[code];
  if (tlsCause) {
    const detail = code === 'ERR_TLS_CERT_ALTNAME_INVALID' && err.reason ? `: ${err.reason}` : '';
    return { outcome: 'tls_error', message: `TLS: ${tlsCause}${detail} (${code}) at ${target}`, ...status };
  }
  // OpenSSL handshake failures arrive as EPROTO with the reason inside the message.
  const sslReason = /SSL routines:[^:]*:([^:]+)/.exec(err.message)?.[1]?.trim();
  if (PROTOCOL_VERSION.test(code) || (sslReason && PROTOCOL_VERSION.test(sslReason))) {
    return {
      outcome: 'tls_error',
      message: `TLS: protocol version refused: the receiver does not offer TLS 1.2 or higher (${sslReason ?? code}) at ${target}`,
      ...status,
    };
  }
  if (sslReason || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code.startsWith('CERT_')) {
    return {
      outcome: 'tls_error',
      message: `TLS: ${sslReason ?? err.message} (${code}) at ${target}`,
      ...status,
    };
  }
  if (DNS_CODES.has(code)) {
    return {
      outcome: 'dns_error',
      message: `DNS: cannot resolve ${err.hostname ?? target} (${code})`,
      ...status,
    };
  }
  if (CONNECT_CODES.has(code) && phase === 'connect') {
    const what = code === 'ECONNREFUSED' ? 'connection refused' : 'cannot connect';
    return { outcome: 'connect_refused', message: `${what} by ${target} (${code})`, ...status };
  }
  if (code.startsWith('HPE_')) {
    return {
      outcome: 'invalid_response',
      message: `invalid HTTP response ${PHASE_TEXT[phase]}: ${err.message} (${code})`,
      ...status,
    };
  }
  if (RESET_CODES.has(code) || err.message === 'aborted') {
    const after =
      statusCode === undefined ? PHASE_TEXT[phase] : `after the response headers (status ${statusCode})`;
    return { outcome: 'reset', message: `connection reset ${after} (${code || 'aborted'})`, ...status };
  }
  return {
    outcome: phase === 'connect' ? 'connect_refused' : 'invalid_response',
    message: `${err.message}${code ? ` (${code})` : ''} ${PHASE_TEXT[phase]}`,
    ...status,
  };
}

/** The message of an attempt that got a complete response. */
export function statusMessage(statusCode: number, location?: string): string {
  if (statusCode === 200) return 'receiver answered 200 (acknowledged)';
  const redirect = location ? `; redirect to ${location} not followed` : '';
  // Spec "1. Notification delivery (outbound from the service)" rule 2: any status other than exactly 200,
  // other 2xx included, is a failure.
  return `receiver answered ${statusCode}; only 200 acknowledges${redirect}`;
}
