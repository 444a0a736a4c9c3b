import { TRANSACTION_CODES } from '../auth/index.js';
import { EmulatorError } from '../errors.js';
import type { SoapFaultKind } from './render-soap.js';

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
    /** SOAP: who is at fault (`Client` = the request, `Server` = us), `VersionMismatch`, `MustUnderstand`. */
    readonly soapFault: SoapFaultKind = 'Client',
  ) {
    super(outcome, message, STATUS[outcome], 'user_input');
    this.transactionCode = TRANSACTION_CODES[outcome];
  }
}

/** Shorthand for the most common transport error. */
export function malformed(message: string, soapFault?: 'Client' | 'VersionMismatch'): ApiRequestError {
  return new ApiRequestError('malformed_request', message, soapFault);
}

/**
 * An error ASMX answers with its HTTP status and an empty body, not a Fault: a Client fault caused by
 * an XmlException is a 400, an unsupported media type a 415, and the helpers' WriteFault writes an
 * envelope only for a 500 (SoapServerProtocolHelper.SetResponseErrorCode). JSON and XML answer it as
 * any other ApiRequestError.
 */
export class BodilessError extends ApiRequestError {}

/** The XML could not be read (ill-formed, a DTD, an undeclared entity, no document): an XmlException to .NET. */
export function xmlError(message: string): ApiRequestError {
  return new BodilessError('malformed_request', message);
}

/** A SOAP header block the request says must be understood, which this service does not know. */
export interface NotUnderstoodHeader {
  /** Local name of the header element. */
  name: string;
  /** Its namespace URI ('' when unqualified). */
  ns: string;
}

/**
 * A header block with mustUnderstand true and no one here to understand it (SOAP 1.1 §4.2.3,
 * SOAP 1.2 part 1 §5.2.3): a MustUnderstand Fault, in SOAP 1.2 with a NotUnderstood header.
 */
export class MustUnderstandError extends ApiRequestError {
  constructor(readonly header: NotUnderstoodHeader) {
    super(
      'malformed_request',
      `SOAP header ${header.name}${header.ns ? ` (namespace ${header.ns})` : ''} was not understood: it is marked mustUnderstand and GetAccessToken takes no SOAP headers. Remove the header or its mustUnderstand attribute.`,
      'MustUnderstand',
    );
  }
}
