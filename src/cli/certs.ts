import { access } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../errors.js';

/** Hosts a certificate is made for when none are named: what a local receiver is reached as. */
export const DEFAULT_CERT_HOSTS = ['localhost', '127.0.0.1', '::1'] as const;
const DNS_NAME =
  /^(\*\.)?[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

interface CertsFlags {
  out: string;
  host?: string[];
  days: string;
  caDays: string;
  keepExisting?: boolean;
}

/** What `certs` writes into `--out`. */
const CERT_FILES = ['ca.pem', 'server.pem', 'server-key.pem'] as const;

/** `certs`: writes a CA and a server certificate signed by it, for HTTPS receivers the emulator trusts. */
export function registerCertsCommand(program: Command, setExit: (code: number) => void): void {
  program
    .command('certs')
    .description(
      'write a test CA (ca.pem) and a server certificate signed by it (server.pem, server-key.pem) ' +
        'for an HTTPS receiver; give ca.pem to serve with --ca-file',
    )
    .option(
      '--out <dir>',
      'directory to write into (created if needed; existing files are replaced)',
      'certs',
    )
    .option(
      '--host <name...>',
      `DNS name or IP address the server certificate is valid for; repeat for several (default ${DEFAULT_CERT_HOSTS.join(', ')})`,
    )
    .option('--days <n>', 'validity of the server certificate in days', '30')
    .option(
      '--ca-days <n>',
      'validity of the CA in days (long by default: a CA kept as a CI secret must outlive many server certificates)',
      '3650',
    )
    .option(
      '--keep-existing',
      'leave ca.pem, server.pem and server-key.pem as they are when all three exist (a compose one-shot ' +
        'that runs again must not replace the certificate a running receiver serves)',
    )
    .action(async (flags: CertsFlags) => setExit(await runCerts(flags)));
}

/** Validates the flags, generates and writes the files, and prints where they went. */
async function runCerts(flags: CertsFlags): Promise<number> {
  const hosts = flags.host && flags.host.length > 0 ? flags.host : [...DEFAULT_CERT_HOSTS];
  for (const [i, host] of hosts.entries()) {
    if (isIP(host) === 0 && !DNS_NAME.test(host)) {
      throw new InputError('invalid_option', `--host: "${host}" is neither a DNS name nor an IP address.`, {
        path: `host[${i}]`,
      });
    }
  }
  const days = Number(flags.days);
  if (!Number.isInteger(days) || days < 1 || days > 3650) {
    throw new InputError('invalid_option', `--days: "${flags.days}" is not a whole number from 1 to 3650.`);
  }
  const caDays = Number(flags.caDays);
  if (!Number.isInteger(caDays) || caDays < 1 || caDays > 7300) {
    throw new InputError(
      'invalid_option',
      `--ca-days: "${flags.caDays}" is not a whole number from 1 to 7300.`,
    );
  }
  if (days > caDays) {
    throw new InputError(
      'invalid_option',
      `--days ${days} is longer than --ca-days ${caDays}: a server certificate cannot outlive the CA that signed it.`,
    );
  }
  if (flags.keepExisting && (await allExist(flags.out))) {
    process.stdout.write(
      `kept ${CERT_FILES.map((f) => join(flags.out, f)).join(', ')} (all three exist; --keep-existing)\n`,
    );
    return 0;
  }
  // Lazy: node-forge is only needed by this command.
  const { createCertificateAuthority, createServerCertificate, writeCertificateFiles } = await import(
    '../certs/index.js'
  );
  const notAfter = new Date(Date.now() + days * 86_400_000);
  const ca = createCertificateAuthority({
    commonName: 'reportbo-emulator test CA',
    notAfter: new Date(Date.now() + caDays * 86_400_000),
  });
  const server = createServerCertificate({ ca, hosts, notAfter });
  let files: Awaited<ReturnType<typeof writeCertificateFiles>>;
  try {
    files = await writeCertificateFiles(flags.out, server, ca);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new InputError('file_unwritable', `--out: cannot write into ${flags.out} (${reason}).`);
  }
  process.stdout.write(
    [
      `wrote ${files.caCert} (CA certificate, valid ${caDays} days: trust it with serve --ca-file / REPORTBO_CA_FILE)`,
      `wrote ${files.cert} (server certificate for ${hosts.join(', ')}, valid ${days} days)`,
      `wrote ${files.key} (its private key, readable by its owner only)`,
      '',
    ].join('\n'),
  );
  return 0;
}

async function allExist(dir: string): Promise<boolean> {
  const found = await Promise.all(
    CERT_FILES.map((f) =>
      access(join(dir, f)).then(
        () => true,
        () => false,
      ),
    ),
  );
  return found.every(Boolean);
}
