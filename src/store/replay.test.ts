import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority } from '../certs/index.js';
import type { KeptRecord } from './kinds.js';
import { RecordReader } from './replay.js';

/** Two certificates of their own, each as a format-2 `trust+` record adds it. */
const pems = [createCertificateAuthority().certPem, createCertificateAuthority().certPem];
const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;
const added = (pem: string): KeptRecord => ({
  k: 'trust+',
  d: { text: pem, source: 'admin', fingerprint: fingerprint(pem) },
});
const removed = (pem: string): KeptRecord => ({ k: 'trust-', d: { fingerprint: fingerprint(pem) } });

/** The fingerprints of the certificates that the changes read remove. */
function removals(records: KeptRecord[]): string[] {
  const reader = new RecordReader();
  for (const rec of records) reader.apply(rec);
  return reader.changes.flatMap((c) => (c?.k === 'trust_removed' ? [c.d.certificate.fingerprint256] : []));
}

describe('a format-2 trust removal read back', () => {
  it('removes the certificate added with its fingerprint, among others, across a reset', () => {
    const [a, b] = pems as [string, string];
    const reset: KeptRecord = { k: 'reset', d: {} };
    expect(removals([added(a), added(b), reset, removed(a), removed(b)])).toEqual([
      fingerprint(a),
      fingerprint(b),
    ]);
  });

  it('removes nothing for a fingerprint never added', () => {
    const [a, b] = pems as [string, string];
    expect(removals([added(a), removed(b)])).toEqual([]);
  });
});
