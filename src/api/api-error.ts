import { TRANSACTION_CODES } from '../auth/index.js';
import { EmulatorError } from '../errors.js';

type TransportOutcome = 'malformed_request' | 'payload_too_large' | 'unsupported_media_type';

const STATUS: Record<TransportOutcome, number> = {
  malformed_request: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
};

/**
 * A request the transport could not read (bad JSON/XML, DTD, oversized, wrong content type).
 * Each variant renders it in its own format: a JSON/XML GetAccessTokenResponse or a SOAP Fault.
 */
export class ApiRequestError extends EmulatorError {
  readonly transactionCode: string;

  constructor(
    readonly outcome: TransportOutcome,
    message: string,
    /** SOAP: who is at fault (`Client` = the request, `Server` = us), also `VersionMismatch`. */
    readonly soapFault: 'Client' | 'Server' | 'VersionMismatch' = 'Client',
  ) {
    super(outcome, message, STATUS[outcome], 'user_input');
    this.transactionCode = TRANSACTION_CODES[outcome];
  }
}

/** Shorthand for the most common transport error. */
export function malformed(message: string, soapFault?: 'Client' | 'VersionMismatch'): ApiRequestError {
  return new ApiRequestError('malformed_request', message, soapFault);
}
