import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CertificateAuthority, ServerCertificate } from './generate.js';

/** Paths written by `writeCertificateFiles`. */
export interface CertificateFiles {
  caCert?: string;
  cert: string;
  key: string;
}

/**
 * Writes a server certificate, its key (mode 0600) and, when given, the CA certificate as PEM files
 * into `dir` (created if needed). Names: `ca.pem`, `<name>.pem`, `<name>-key.pem`.
 */
export async function writeCertificateFiles(
  dir: string,
  server: ServerCertificate,
  ca?: CertificateAuthority,
  name = 'server',
): Promise<CertificateFiles> {
  await mkdir(dir, { recursive: true });
  const files: CertificateFiles = { cert: join(dir, `${name}.pem`), key: join(dir, `${name}-key.pem`) };
  await writeFile(files.cert, server.certPem);
  await writeFile(files.key, server.keyPem, { mode: 0o600 });
  if (ca) {
    files.caCert = join(dir, 'ca.pem');
    await writeFile(files.caCert, ca.certPem);
  }
  return files;
}
