import { describe, expect, it } from 'vitest';
import { TRUST_EXPIRY_WARNING_DAYS, type TrustedCertificate, trustExpiryWarnings } from './trust.js';

const DAY_MS = 86_400_000;
/** A fixed instant: the warnings are computed from it, never from the time the test takes. */
const NOW = Date.parse('2026-11-25T12:00:00.000Z');

const certificate = (validTo: string): TrustedCertificate => ({
  subject: 'CN=test CA',
  issuer: 'CN=test CA',
  fingerprint256: 'AB:CD',
  validFrom: '2026-01-01T00:00:00.000Z',
  validTo,
  ca: true,
  source: 'ca-file',
});

describe('trustExpiryWarnings', () => {
  it('warns for a certificate ending within the warning days, with the days left to a tenth', () => {
    const validTo = new Date(NOW + 3 * DAY_MS).toISOString();
    expect(trustExpiryWarnings([certificate(validTo)], NOW)).toEqual([
      expect.stringContaining(
        `trusted certificate "CN=test CA" (ca-file) expires on ${validTo} (in 3.0 days)`,
      ),
    ]);
  });

  it('says "expired" for one already past its end, and nothing for one beyond the warning days', () => {
    const past = new Date(NOW - DAY_MS).toISOString();
    const beyond = new Date(NOW + (TRUST_EXPIRY_WARNING_DAYS + 1) * DAY_MS).toISOString();
    const warnings = trustExpiryWarnings([certificate(past), certificate(beyond)], NOW);
    expect(warnings).toEqual([expect.stringContaining(`(ca-file) expired on ${past}:`)]);
  });

  it('warns with exactly the warning days left, and not with one millisecond more', () => {
    const edge = NOW + TRUST_EXPIRY_WARNING_DAYS * DAY_MS;
    expect(trustExpiryWarnings([certificate(new Date(edge).toISOString())], NOW)).toHaveLength(1);
    expect(trustExpiryWarnings([certificate(new Date(edge + 1).toISOString())], NOW)).toEqual([]);
  });
});
