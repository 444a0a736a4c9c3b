import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';
import { testCa, testCaFile, tlsReceiver } from './helpers/tls.js';

interface TrustAnswer {
  added: Array<{ fingerprint256: string; source: string; ca: boolean; subject: string }>;
  certificates: Array<{ fingerprint256: string; source: string }>;
}

describe('trusting a CA at run time (POST /__admin/trust)', () => {
  it('turns a tls_error into a delivery once the receiver CA is posted as PEM text, and keeps it across reset', async () => {
    const r = await tlsReceiver('trusted');
    const emu = await deliveryEmulator();
    await emu.credential({ id: 'c', apiKey: 'k', url: r.url });

    const before = await emu.event({ type: 'Issue' });
    await emu.settle();
    const refused = await emu.notification(before.notifications[0]!.id);
    expect(refused.attempts[0]!.outcome).toBe('tls_error');
    expect(refused.attempts[0]!.message).toMatch(/not trusted.*POST \/__admin\/trust/);

    // What `curl --data-binary @ca.pem -H 'Content-Type: application/x-pem-file'` sends: the PEM text itself.
    const res = await fetch(`${emu.url}/__admin/trust`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-pem-file' },
      body: testCa().certPem,
    });
    expect(res.status).toBe(201);
    const trusted = (await res.json()) as TrustAnswer;
    const fingerprint = new X509Certificate(testCa().certPem).fingerprint256;
    expect(trusted.added).toEqual([
      expect.objectContaining({ fingerprint256: fingerprint, source: 'admin', ca: true }),
    ]);

    const after = await emu.event({ type: 'Issue' });
    await emu.settle();
    const delivered = await emu.notification(after.notifications[0]!.id);
    expect(delivered.state).toBe('delivered');
    expect(delivered.attempts.map((a) => a.statusCode)).toEqual([200]);

    expect((await emu.admin('POST', '/reset')).status).toBe(200);
    const list = await emu.admin<{ certificates: TrustAnswer['certificates'] }>('GET', '/trust');
    expect(list.body.certificates.map((c) => c.fingerprint256)).toEqual([fingerprint]);
  });

  it('takes JSON {"pem"} too, keeps a certificate once, and lists --ca-file certificates with their source', async () => {
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    const again = await emu.admin<TrustAnswer>('POST', '/trust', { pem: testCa().certPem });
    expect(again.status).toBe(201);
    expect(again.body.added).toEqual([]);
    expect(again.body.certificates).toEqual([expect.objectContaining({ source: 'ca-file' })]);
  });

  it.each([
    ['text that holds no certificate', 'hello', /no PEM certificate/],
    [
      'a PEM block that is not a certificate',
      '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n',
      /certificate 1 of 1 cannot be read/,
    ],
  ])('refuses %s with 400 and a message saying what was expected', async (_name, body, message) => {
    const emu = await deliveryEmulator();
    const res = await fetch(`${emu.url}/__admin/trust`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-pem-file' },
      body,
    });
    expect(res.status).toBe(400);
    const problem = (await res.json()) as { error: { message: string } };
    expect(problem.error.message).toMatch(message);
    expect((await emu.admin<{ certificates: unknown[] }>('GET', '/trust')).body.certificates).toEqual([]);
  });

  it('refuses JSON without a pem string, naming the field', async () => {
    const emu = await deliveryEmulator();
    const answer = await emu.admin<{ error: { details: { path: string } } }>('POST', '/trust', { cert: 'x' });
    expect(answer.status).toBe(400);
    expect(answer.body.error.details.path).toBe('pem');
  });

  it('delivers to a receiver of a CA trusted before a restart: the certificate read back reaches the sender', async () => {
    const r = await tlsReceiver('trusted');
    const dataDir = mkdtempSync(join(tmpdir(), 'reportbo-trust-'));
    try {
      const first = await deliveryEmulator({ dataDir });
      await first.admin('POST', '/trust', { pem: testCa().certPem });
      await first.credential({ id: 'c', apiKey: 'k', url: r.url });
      await first.server.close();
      const emu = await deliveryEmulator({ dataDir });
      const { notifications } = await emu.event({ type: 'Issue' });
      await emu.settle();
      const delivered = await emu.notification(notifications[0]!.id);
      expect(delivered.state).toBe('delivered');
      await emu.server.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
