import { describe, expect, it } from 'vitest';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';
import { testCaFile, tlsReceiver } from './helpers/tls.js';

/** Sends one Issue to `url` and answers the first attempt, checking the server still answers. */
async function firstAttempt(emu: DeliveryHarness, url: string) {
  await emu.credential({ apiKey: 'k', url });
  const result = await emu.event({ type: 'Issue' });
  await emu.settle();
  const n = await emu.notification(result.notifications[0]!.id);
  expect(n.state).toBe('pending');
  expect(n.attempts).toHaveLength(1);
  const health = await emu.admin('GET', '/health');
  expect(health.status).toBe(200);
  return n.attempts[0]!;
}

describe('notification delivery: broken receivers are recorded, never fatal', () => {
  it('times out a hanging receiver after the configured 500 ms', async () => {
    const r = await receiver({ defaultBehaviour: behave.hang() });
    const emu = await deliveryEmulator({ allowHttp: true, responseTimeoutMs: 500 });
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt.outcome).toBe('timeout');
    expect(attempt.message).toBe('no complete response within 500 ms (waiting for the response headers)');
    expect(attempt.durationMs).toBeGreaterThanOrEqual(490);
  });

  it('times out a slow receiver that answers after the deadline', async () => {
    const r = await receiver({ defaultBehaviour: behave.slow(1_500) });
    const emu = await deliveryEmulator({ allowHttp: true, responseTimeoutMs: 500 });
    expect((await firstAttempt(emu, r.url)).outcome).toBe('timeout');
  });

  it('cuts an endless body past the read limit, keeping 4 KiB of it', async () => {
    const r = await receiver({ defaultBehaviour: behave.endlessBody(200) });
    const emu = await deliveryEmulator({ allowHttp: true, responseTimeoutMs: 600_000 });
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt).toMatchObject({ outcome: 'invalid_response', statusCode: 200 });
    expect(attempt.message).toContain(
      'stopped reading and closed the connection; the first 4096 bytes are kept',
    );
    expect(attempt.responseBody).toHaveLength(4096);
  });

  it('records a reset before the headers', async () => {
    const r = await receiver({ defaultBehaviour: behave.resetBeforeHeaders() });
    const emu = await deliveryEmulator({ allowHttp: true });
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt.outcome).toBe('reset');
    expect(attempt.statusCode).toBeUndefined();
  });

  it('records a reset after a 200 header as a failure, not a delivery', async () => {
    const r = await receiver({ defaultBehaviour: behave.resetAfterHeaders(200) });
    const emu = await deliveryEmulator({ allowHttp: true });
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt).toMatchObject({ outcome: 'reset', statusCode: 200 });
  });

  it('records a refused connection', async () => {
    const r = await receiver();
    const url = r.url;
    await r.close();
    const emu = await deliveryEmulator({ allowHttp: true });
    const attempt = await firstAttempt(emu, url);
    expect(attempt.outcome).toBe('connect_refused');
    expect(attempt.message).toContain('ECONNREFUSED');
  });

  it('records a DNS failure', async () => {
    const emu = await deliveryEmulator();
    const attempt = await firstAttempt(emu, 'https://no-such-receiver.invalid/hook');
    expect(attempt.outcome).toBe('dns_error');
    expect(attempt.message).toContain('no-such-receiver.invalid');
  });

  it.each([
    ['self-signed', 'self-signed certificate'],
    ['expired', 'certificate expired'],
    ['wrong-host', 'hostname mismatch'],
    ['tls1.0', 'protocol version refused'],
  ] as const)('refuses a %s receiver as tls_error naming the cause', async (kind, cause) => {
    const r = await tlsReceiver(kind);
    const emu = await deliveryEmulator({ caFile: testCaFile() });
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt.outcome).toBe('tls_error');
    expect(attempt.message).toContain(cause);
    expect(r.requests).toHaveLength(0);
  });

  it('refuses a receiver signed by a CA that was not given with --ca-file', async () => {
    const r = await tlsReceiver('trusted');
    const emu = await deliveryEmulator();
    const attempt = await firstAttempt(emu, r.url);
    expect(attempt.outcome).toBe('tls_error');
    expect(attempt.message).toContain('--ca-file');
  });

  it('fails start-up on a CA file that holds no certificate', async () => {
    await expect(deliveryEmulator({ caFile: new URL(import.meta.url).pathname })).rejects.toMatchObject({
      code: 'ca_file_invalid',
    });
  });
});
