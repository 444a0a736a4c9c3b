/** A trusted certificate's shape (zod), for src/delivery/trust.ts and the admin contract alike. */
import { z } from 'zod';
import { instant, str } from './fields.js';

/** Where a trusted certificate came from. */
/** `scenario`: the CA of a scenario's built-in HTTPS receivers, trusted when the scenario starts. */
export const TRUST_SOURCES = ['ca-file', 'ca-pem', 'admin', 'scenario'] as const;

export const TrustedCertificateShape = z.object({
  subject: str,
  issuer: str,
  fingerprint256: str.describe('SHA-256 fingerprint, as `openssl x509 -fingerprint -sha256` prints it'),
  validFrom: instant,
  validTo: instant,
  ca: z.boolean().describe('whether it may sign others; a self-signed leaf can be trusted as itself'),
  source: z.enum(TRUST_SOURCES),
});
