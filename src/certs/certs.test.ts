import { X509Certificate } from 'node:crypto';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { createCertificateAuthority, createServerCertificate, writeCertificateFiles } from './index.js';

describe('certificates', () => {
  const ca = createCertificateAuthority({ commonName: 'Unit CA' });

  it('signs a server certificate with the CA for every DNS name and IP given', () => {
    const server = createServerCertificate({ ca, hosts: ['localhost', '127.0.0.1'] });
    const x509 = new X509Certificate(server.certPem);
    expect(x509.verify(new X509Certificate(ca.certPem).publicKey)).toBe(true);
    expect(x509.subjectAltName).toBe('DNS:localhost, IP Address:127.0.0.1');
    expect(x509.checkHost('localhost')).toBe('localhost');
    expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x509.issuer).toMatch(/^CN=Unit CA [0-9a-f]{8}$/);
    expect(x509.issuer).toBe(`CN=${ca.commonName}`);
    expect(server.caPem).toBe(ca.certPem);
  });

  it('signs the CA with its own key and the server certificate with the CA key, as OpenSSL and forge verify', () => {
    const caX509 = new X509Certificate(ca.certPem);
    expect(caX509.verify(caX509.publicKey)).toBe(true);
    expect(caX509.verify(new X509Certificate(createCertificateAuthority().certPem).publicKey)).toBe(false);
    const server = createServerCertificate({ ca });
    const forgeCa = forge.pki.certificateFromPem(ca.certPem);
    expect(forgeCa.verify(forgeCa)).toBe(true);
    expect(forgeCa.verify(forge.pki.certificateFromPem(server.certPem))).toBe(true);
    expect(forgeCa.signatureOid).toBe(forge.pki.oids.sha256WithRSAEncryption);
  });

  it('makes a self-signed certificate when no CA is given', () => {
    const server = createServerCertificate({ hosts: ['localhost'] });
    const x509 = new X509Certificate(server.certPem);
    expect(x509.issuer).toBe(x509.subject);
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(server.caPem).toBeUndefined();
  });

  it('makes a certificate whose validity ended before now when asked for an expired one', () => {
    const server = createServerCertificate({ ca, expired: true });
    expect(new Date(new X509Certificate(server.certPem).validTo).getTime()).toBeLessThan(Date.now());
  });

  it('marks the CA as a CA and the server certificate as not one', () => {
    expect(new X509Certificate(ca.certPem).ca).toBe(true);
    expect(new X509Certificate(createServerCertificate({ ca }).certPem).ca).toBe(false);
  });

  it('writes PEM files, the key readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'certs-'));
    try {
      const server = createServerCertificate({ ca });
      const files = await writeCertificateFiles(dir, server, ca);
      expect(await readFile(files.cert, 'utf8')).toBe(server.certPem);
      expect(await readFile(files.caCert!, 'utf8')).toBe(ca.certPem);
      expect((await stat(files.key)).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
