// Uses the package entry exactly as a user's test suite would (self-reference resolves to dist/).
import { type StartedEmulator, startEmulator } from 'reportbo-emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { behave } from './helpers/receiver.js';
import { testCaFile, tlsReceiver } from './helpers/tls.js';

const started: StartedEmulator[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((e) => e.stop()));
});

async function start(options: Parameters<typeof startEmulator>[0] = {}): Promise<StartedEmulator> {
  const emulator = await startEmulator({
    caFile: testCaFile(),
    clockStart: '2026-04-27T10:00:00Z',
    ...options,
  });
  started.push(emulator);
  return emulator;
}

describe('startEmulator (package entry)', () => {
  it('starts on a free loopback port with a manual clock and answers health', async () => {
    const emulator = await start();
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.port).toBeGreaterThan(0);
    const res = await fetch(`${emulator.url}/__admin/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok', clock: 'manual' });
  });

  it('delivers an Issue over HTTPS to a receiver and reports it delivered once settled', async () => {
    const receiver = await tlsReceiver('trusted');
    const emulator = await start({
      credentials: [{ id: 'main', apiKey: 'k-prog', url: `${receiver.url}/hook` }],
    });

    const result = await emulator.issue({ Reservation: { PCCBook: 'PROG1' } });
    expect(result.routedTo).toBe(1);
    const [summary] = await emulator.waitUntilSettled({}, WAIT_DEADLINE_MS);
    expect(summary).toMatchObject({ credentialId: 'main', state: 'delivered', attemptCount: 1 });

    const notification = await emulator.notification(summary!.id);
    expect(notification.headers.Authorization).toBe('Bearer k-prog');
    expect(notification.body).toMatchObject({ Reservation: { PCCBook: 'PROG1', BookingStatus: 'Issued' } });
    expect(receiver.requests).toHaveLength(1);
    expect(receiver.requests[0]!.headers.authorization).toBe('Bearer k-prog');
  });

  it('retries a failing receiver at the next minute-55 batch when the clock is advanced', async () => {
    const receiver = await tlsReceiver('trusted', { defaultBehaviour: behave.status(500) });
    const emulator = await start();
    await emulator.addCredential({ id: 'flaky', apiKey: 'k-flaky', url: `${receiver.url}/hook` });

    await emulator.issue();
    const [first] = await emulator.waitUntilSettled({}, WAIT_DEADLINE_MS);
    expect(first).toMatchObject({ state: 'pending', attemptCount: 1 });

    receiver.setDefault(behave.status(200));
    const advanced = await emulator.advanceClock('next-batch');
    expect(advanced.to).toBe('2026-04-27T10:55:00.000Z');
    const [after] = await emulator.waitUntilSettled({}, WAIT_DEADLINE_MS);
    expect(after).toMatchObject({ state: 'delivered', attemptCount: 2 });
    expect(receiver.requests).toHaveLength(2);
  });

  it('serves GetAccessToken to preloaded users and keeps them across reset', async () => {
    const emulator = await start({
      users: [
        { username: 'sdk', password: 'secret', idWeb: 1001, webDescription: 'Agency', versions: ['1.7'] },
      ],
    });
    const login = () =>
      fetch(`${emulator.baseUrls['1.7']}/AuthService.json/GetAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'sdk', Password: 'secret' }),
      });
    const first = (await (await login()).json()) as { Token: string | null; TransactionCode: string | null };
    expect(first.TransactionCode).toBeNull();
    expect(first.Token).toEqual(expect.any(String));

    await emulator.reset();
    const again = (await (await login()).json()) as { Token: string | null };
    expect(again.Token).toEqual(expect.any(String));
  });

  it('refuses a credential whose ApiKey the Authorization header cannot carry, naming the field', async () => {
    await expect(
      startEmulator({ credentials: [{ apiKey: 'key\nX-Injected: 1', url: 'https://receiver.test/hook' }] }),
    ).rejects.toMatchObject({ code: 'invalid_credential', details: { path: 'credentials[0].apiKey' } });
  });

  it('rejects a wait that does not settle in time with code not_settled', async () => {
    const receiver = await tlsReceiver('trusted', { defaultBehaviour: behave.hang() });
    const emulator = await start({ responseTimeoutMs: 5_000 });
    await emulator.addCredential({ apiKey: 'k-hang', url: `${receiver.url}/hook` });
    await emulator.issue();
    await expect(emulator.waitUntilSettled({}, 200)).rejects.toMatchObject({ code: 'not_settled' });
  });

  it('closes its port on stop', async () => {
    const emulator = await startEmulator();
    await emulator.stop();
    await expect(fetch(`${emulator.url}/__admin/health`)).rejects.toThrow();
    await emulator.stop();
  });
});
