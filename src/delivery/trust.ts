import { X509Certificate } from 'node:crypto';
import type { z } from 'zod';
import { InputError } from '../errors.js';
import { APPLY_ONLY, type ChangeSink } from '../model/change-sink.js';
import { TRUST_SOURCES, type TrustedCertificateShape } from '../model/trust.js';

export { TRUST_SOURCES };
export type TrustSource = (typeof TRUST_SOURCES)[number];

/** A certificate trusted for https:// destinations in addition to the system roots. */
export type TrustedCertificate = z.output<typeof TrustedCertificateShape>;

/** What a TrustStore changed (src/change-stream.ts); `pem` is the certificate's PEM text. */
export type TrustChange =
  | { kind: 'trust_added'; certificate: TrustedCertificate; pem: string }
  | { kind: 'trust_removed'; certificate: TrustedCertificate };

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/**
 * The extra certificates the sender trusts: from `--ca-file` at start and from
 * `POST /__admin/trust` at any time (a CI service container starts before the job makes its CA).
 * A certificate is kept once, whatever the number of times it is added.
 */
export class TrustStore {
  readonly #byFingerprint = new Map<string, { pem: string; info: TrustedCertificate }>();

  /** `onChange`: told the PEM texts after each change (the sender connects with them). */
  constructor(
    private readonly changes: ChangeSink<TrustChange> = APPLY_ONLY,
    private readonly onChange?: (pems: string[]) => void,
  ) {}

  /**
   * Parses every PEM certificate in `text` and trusts it; answers the ones that were new.
   * `where` names the input in errors (a file, or the admin request).
   */
  add(text: string, source: TrustSource, where: string): TrustedCertificate[] {
    const blocks = text.match(PEM_BLOCK) ?? [];
    if (blocks.length === 0) {
      throw new InputError(
        'no_certificate',
        `${where}: no PEM certificate found (expected -----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----).`,
      );
    }
    const parsed = blocks.map((pem, i) => {
      try {
        return { pem, cert: new X509Certificate(pem) };
      } catch (err) {
        throw new InputError(
          'invalid_certificate',
          `${where}: certificate ${i + 1} of ${blocks.length} cannot be read (${(err as Error).message}).`,
        );
      }
    });
    const added: TrustedCertificate[] = [];
    for (const { pem, cert } of parsed) {
      if (this.#byFingerprint.has(cert.fingerprint256)) continue;
      const info = certificateInfo(cert, source);
      this.changes.emit({ kind: 'trust_added', certificate: info, pem }, this);
      added.push(info);
    }
    return added;
  }

  /**
   * Stops trusting the certificate with this SHA-256 fingerprint (colons and case optional);
   * answers it, or undefined when it was not trusted.
   */
  remove(fingerprint: string): TrustedCertificate | undefined {
    const wanted = normalizeFingerprint(fingerprint);
    for (const [key, entry] of this.#byFingerprint) {
      if (normalizeFingerprint(key) !== wanted) continue;
      this.changes.emit({ kind: 'trust_removed', certificate: entry.info }, this);
      return entry.info;
    }
    return undefined;
  }

  /** The one writer of the trusted certificates (decision 0212); reset keeps them. */
  apply(change: TrustChange): void {
    switch (change.kind) {
      case 'trust_added':
        this.#byFingerprint.set(change.certificate.fingerprint256, {
          pem: change.pem,
          info: change.certificate,
        });
        break;
      case 'trust_removed':
        this.#byFingerprint.delete(change.certificate.fingerprint256);
        break;
      default:
        return; // not a change of trust (replay hands every store every change)
    }
    this.onChange?.(this.pems());
  }

  /** The certificates as the changes that add them (`ChangeOwner`, decision 0274). */
  asChanges(): TrustChange[] {
    return [...this.#byFingerprint.values()].map(({ pem, info }) => ({
      kind: 'trust_added',
      pem,
      certificate: info,
    }));
  }

  /** The PEM texts, for the TLS agent's `ca` option. */
  pems(): string[] {
    return [...this.#byFingerprint.values()].map((e) => e.pem);
  }

  list(): TrustedCertificate[] {
    return [...this.#byFingerprint.values()].map((e) => e.info);
  }
}

/** What the admin API and the data dir tell of a trusted certificate. */
export function certificateInfo(cert: X509Certificate, source: TrustSource): TrustedCertificate {
  return {
    subject: cert.subject.replaceAll('\n', ', '),
    issuer: cert.issuer.replaceAll('\n', ', '),
    fingerprint256: cert.fingerprint256,
    validFrom: new Date(cert.validFrom).toISOString(),
    validTo: new Date(cert.validTo).toISOString(),
    ca: cert.ca,
    source,
  };
}

function normalizeFingerprint(f: string): string {
  return f.replaceAll(':', '').toUpperCase();
}

/** How close to its end a trusted certificate's validity must be for the start-up warning. */
export const TRUST_EXPIRY_WARNING_DAYS = 7;

/**
 * One warning per trusted certificate that has expired or expires within
 * TRUST_EXPIRY_WARNING_DAYS of `nowMs` (wall time: TLS checks validity against the real clock):
 * a CA kept as a CI secret quietly turns every HTTPS delivery into `certificate_expired`.
 */
export function trustExpiryWarnings(certificates: readonly TrustedCertificate[], nowMs: number): string[] {
  const warnings: string[] = [];
  for (const c of certificates) {
    const leftMs = Date.parse(c.validTo) - nowMs;
    if (leftMs > TRUST_EXPIRY_WARNING_DAYS * 86_400_000) continue;
    const when =
      leftMs <= 0
        ? `expired on ${c.validTo}`
        : `expires on ${c.validTo} (in ${(leftMs / 86_400_000).toFixed(1)} days)`;
    warnings.push(
      `trusted certificate "${c.subject}" (${c.source}) ${when}: deliveries to receivers it signed will fail ` +
        `with certificate_expired; make a new CA (reportbo-emulator certs --ca-days 3650) and trust it instead`,
    );
  }
  return warnings;
}
