import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { InputError, NotFoundError } from '../errors.js';
import { mount } from './mount.js';

/** A CA file is a few KiB; anything far larger is not one. */
const MAX_TRUST_BODY_BYTES = 256 * 1024;

/**
 * `GET/POST /__admin/trust`, `DELETE /__admin/trust/:fingerprint`: certificates trusted for https:// destinations besides the system
 * roots. POST takes PEM text as the body (`curl --data-binary @ca.pem`) or JSON `{"pem": "…"}`,
 * so a CI job can trust the CA it made after the emulator's service container started.
 */
export function trustRoutes(emulator: Emulator): Hono {
  const { delivery } = emulator;
  return mount(new Hono(), {
    listTrusted: () => ({ certificates: delivery.trustStore.list() }),
    trust: (_c, { body: { pem } }) => {
      if (Buffer.byteLength(pem) > MAX_TRUST_BODY_BYTES) {
        throw new InputError(
          'body_too_large',
          `The body is over ${MAX_TRUST_BODY_BYTES / 1024} KiB: send only the CA certificate(s).`,
        );
      }
      const added = delivery.trust(pem, 'admin', 'POST /__admin/trust');
      return { added, certificates: delivery.trustStore.list() };
    },
    // `run --target` removes the CA it added, so a target is left trusting what it trusted before.
    untrust: (_c, { params: { fingerprint } }) => {
      const removed = delivery.untrust(fingerprint);
      if (!removed) {
        const known = delivery.trustStore.list().map((t) => t.fingerprint256);
        throw new NotFoundError(
          'certificate_not_trusted',
          `No trusted certificate has the SHA-256 fingerprint ${fingerprint}. Trusted: ${known.length ? known.join(', ') : '(none)'}.`,
        );
      }
    },
  });
}
