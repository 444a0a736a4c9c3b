import { constants, createHash, privateEncrypt, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';
import { HOUR_MS } from '../clock/schedule.js';

/** RSA key size for generated keys: the smallest size TLS 1.2 stacks accept at default security levels. */
export const KEY_BITS = 2048;
/** Default validity of a generated certificate, from one hour ago (clock skew) to this many days ahead. */
export const DEFAULT_VALIDITY_DAYS = 30;
const DAY_MS = 86_400_000;

/** A certificate and its private key, PEM-encoded. */
export interface PemPair {
  certPem: string;
  keyPem: string;
}

/** A certificate authority that can sign server certificates. */
export interface CertificateAuthority extends PemPair {
  readonly commonName: string;
}

/** A server certificate; `caPem` is the issuing CA (absent when self-signed). */
export interface ServerCertificate extends PemPair {
  /** Hostnames and IP addresses written into subjectAltName. */
  hosts: string[];
  caPem?: string;
  notBefore: Date;
  notAfter: Date;
}

/** Validity window; defaults to "valid now". */
export interface ValidityOptions {
  notBefore?: Date;
  notAfter?: Date;
  /** Shortcut: a window that ended yesterday (for "expired certificate" receivers). */
  expired?: boolean;
}

export interface CaOptions extends ValidityOptions {
  /** Start of the subject's common name; a key-derived id is appended so every CA is distinct. */
  commonName?: string;
}

export interface ServerCertificateOptions extends ValidityOptions {
  /** DNS names and IP addresses the certificate is valid for (default `localhost`, `127.0.0.1`, `::1`). */
  hosts?: string[];
  /** Signing CA; when absent the certificate signs itself (a "self-signed" receiver). */
  ca?: CertificateAuthority;
}

/**
 * Generates a CA certificate and key (PEM). Every CA gets its own subject (the common name ends in
 * an id derived from its key) and a random serial: TLS stacks look an issuer up by subject, so two
 * CAs with one subject cannot be trusted side by side (the second one's certificates fail with
 * "certificate signature failure").
 */
export function createCertificateAuthority(options: CaOptions = {}): CertificateAuthority {
  const keys = forge.pki.rsa.generateKeyPair({ bits: KEY_BITS });
  const commonName = `${options.commonName ?? 'reportbo-emulator test CA'} ${keyId(keys.publicKey)}`;
  const { notBefore, notAfter } = validity(options);
  const cert = baseCertificate(keys.publicKey, notBefore, notAfter);
  const subject = [{ name: 'commonName', value: commonName }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, critical: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  const keyPem = forge.pki.privateKeyToPem(keys.privateKey);
  sign(cert, keyPem);
  return { commonName, certPem: forge.pki.certificateToPem(cert), keyPem };
}

/** Generates a TLS server certificate for the given hosts, signed by `ca` or by itself. */
export function createServerCertificate(options: ServerCertificateOptions = {}): ServerCertificate {
  const hosts = options.hosts ?? ['localhost', '127.0.0.1', '::1'];
  if (hosts.length === 0) throw new RangeError('createServerCertificate: give at least one host');
  const keys = forge.pki.rsa.generateKeyPair({ bits: KEY_BITS });
  const { notBefore, notAfter } = validity(options);
  const cert = baseCertificate(keys.publicKey, notBefore, notAfter);
  cert.setSubject([{ name: 'commonName', value: hosts[0]! }]);
  const keyPem = forge.pki.privateKeyToPem(keys.privateKey);
  if (options.ca) cert.setIssuer(forge.pki.certificateFromPem(options.ca.certPem).subject.attributes);
  else cert.setIssuer(cert.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
    { name: 'extKeyUsage', serverAuth: true },
    // Modern TLS stacks check subjectAltName only (the common name is ignored): IPs need type 7.
    {
      name: 'subjectAltName',
      altNames: hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h })),
    },
  ]);
  sign(cert, options.ca?.keyPem ?? keyPem);
  return {
    hosts,
    certPem: forge.pki.certificateToPem(cert),
    keyPem,
    ...(options.ca ? { caPem: options.ca.certPem } : {}),
    notBefore,
    notAfter,
  };
}

/** DER of the DigestInfo header of a SHA-256 digest (RFC 8017 §9.2, note 1). */
const SHA256_DIGEST_INFO = Buffer.from('3031300d060960864801650304020105000420', 'hex');

/**
 * Signs `cert` (SHA-256 with RSA, PKCS#1 v1.5) with Node's RSA instead of forge's: the same
 * signature bytes, in ~4 ms instead of ~60-180 ms of forge's JavaScript big integers (decision 0272).
 */
function sign(cert: forge.pki.Certificate, keyPem: string): void {
  const signer = {
    sign: (md: forge.md.MessageDigest) =>
      privateEncrypt(
        { key: keyPem, padding: constants.RSA_PKCS1_PADDING },
        Buffer.concat([SHA256_DIGEST_INFO, Buffer.from(md.digest().getBytes(), 'binary')]),
      ).toString('binary'),
  };
  cert.sign(signer as unknown as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
}

/** 8 hex digits of the SHA-256 of the public key: distinct for distinct keys, stable for one. */
function keyId(publicKey: forge.pki.rsa.PublicKey): string {
  const der = forge.asn1.toDer(forge.pki.publicKeyToAsn1(publicKey)).getBytes();
  return createHash('sha256').update(der, 'binary').digest('hex').slice(0, 8);
}

function baseCertificate(publicKey: forge.pki.PublicKey, notBefore: Date, notAfter: Date) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  // Positive serial: a leading 0x00..0x7f byte keeps the DER integer non-negative.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  return cert;
}

function validity(options: ValidityOptions): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  if (options.expired) {
    return {
      notBefore: options.notBefore ?? new Date(now - 2 * DEFAULT_VALIDITY_DAYS * DAY_MS),
      notAfter: options.notAfter ?? new Date(now - DAY_MS),
    };
  }
  return {
    notBefore: options.notBefore ?? new Date(now - HOUR_MS),
    notAfter: options.notAfter ?? new Date(now + DEFAULT_VALIDITY_DAYS * DAY_MS),
  };
}
