import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  createServerCertificate,
  type ServerCertificate,
} from '../../src/certs/index.js';
import type { Receiver, ReceiverOptions } from '../../src/receivers/index.js';
import { atFileEnd } from './file-hooks.js';
import { receiver } from './receiver.js';

/** How an HTTPS receiver presents itself. `trusted` is the only one a sender should accept. */
export type TlsReceiverKind = 'trusted' | 'self-signed' | 'expired' | 'wrong-host' | 'tls1.0';

let ca: CertificateAuthority | undefined;
let dir: string | undefined;

atFileEnd(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** The CA of this test file, generated once. */
export function testCa(): CertificateAuthority {
  ca ??= createCertificateAuthority({ commonName: 'reportbo-emulator e2e CA' });
  return ca;
}

/** Path of a temp PEM file holding the test CA, for the emulator's `caFile` setting. */
export function testCaFile(): string {
  if (!dir) {
    // Written once: tests running side by side read it while another asks for it.
    dir = mkdtempSync(join(tmpdir(), 'reportbo-tls-'));
    writeFileSync(join(dir, 'ca.pem'), testCa().certPem);
  }
  return join(dir, 'ca.pem');
}

/**
 * Each kind's certificate, made once per process: a key costs ~0.3 CPU-s and no test varies a
 * receiver's key, only whether its certificate is trusted, expired, for another host or TLS 1.0
 * (decision 0267).
 */
const certificates = new Map<TlsReceiverKind, NonNullable<ReceiverOptions['tls']>>();

/** The test CA's certificate for 127.0.0.1 and localhost (a trusted receiver's), made once per process. */
export function loopbackCertificate(): ServerCertificate {
  loopback ??= createServerCertificate({ ca: testCa(), hosts: ['127.0.0.1', 'localhost'] });
  return loopback;
}
let loopback: ServerCertificate | undefined;

/** Starts an HTTPS receiver on 127.0.0.1 whose certificate is valid, or broken in the named way. */
export async function tlsReceiver(
  kind: TlsReceiverKind,
  options: Omit<ReceiverOptions, 'tls'> = {},
): Promise<Receiver> {
  let tls = certificates.get(kind);
  if (!tls) {
    tls = certificateOf(kind);
    certificates.set(kind, tls);
  }
  return receiver({ ...options, tls });
}

function certificateOf(kind: TlsReceiverKind): NonNullable<ReceiverOptions['tls']> {
  const authority = testCa();
  const hosts = ['127.0.0.1', 'localhost'];
  switch (kind) {
    case 'trusted':
      return loopbackCertificate();
    case 'self-signed':
      return createServerCertificate({ hosts });
    case 'expired':
      return createServerCertificate({ ca: authority, hosts, expired: true });
    case 'wrong-host':
      return createServerCertificate({ ca: authority, hosts: ['wrong-host.example'] });
    case 'tls1.0':
      return {
        ...loopbackCertificate(),
        minVersion: 'TLSv1' as const,
        maxVersion: 'TLSv1' as const,
        ciphers: 'DEFAULT@SECLEVEL=0',
      };
  }
}
