import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './helpers/cli.js';
import { deliveryEmulator, routingOverrides } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

describe('credentials and routing', () => {
  it('routes by PCC (PCCBook or PCCIssue), by IdWeb, by both, or to all when unfiltered', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    const url = `${r.url}/hook`;
    await emu.credential({ id: 'pcc', apiKey: 'k-pcc', url, filters: { pcc: ['AAA1'] } });
    await emu.credential({ id: 'idweb', apiKey: 'k-idweb', url, filters: { idWeb: [1001] } });
    await emu.credential({ id: 'both', apiKey: 'k-both', url, filters: { pcc: ['AAA1'], idWeb: [1001] } });
    await emu.credential({ id: 'all', apiKey: 'k-all', url });
    await emu.credential({ id: 'other', apiKey: 'k-other', url, filters: { pcc: ['ZZZ9'], idWeb: [9] } });

    const routed = async (pccBook: string, pccIssue: string, idWeb: number) => {
      const result = await emu.event({
        type: 'Issue',
        overrides: routingOverrides(pccBook, pccIssue, idWeb),
      });
      return result.notifications.map((n) => n.credentialId).sort();
    };
    expect(await routed('AAA1', 'XXX1', 1001)).toEqual(['all', 'both', 'idweb', 'pcc']);
    expect(await routed('XXX1', 'AAA1', 5)).toEqual(['all', 'pcc']);
    expect(await routed('XXX1', 'XXX1', 1001)).toEqual(['all', 'idweb']);
    expect(await routed('XXX1', 'XXX1', 5)).toEqual(['all']);
    expect(await routed('ZZZ9', 'XXX1', 1001)).toEqual(['all', 'idweb']);
    await emu.settle();

    // Each notification is signed with its own credential's ApiKey.
    const keys = r.requests.map((q) => q.headers.authorization).sort();
    expect(keys).toEqual([
      ...Array(5).fill('Bearer k-all'),
      'Bearer k-both',
      'Bearer k-idweb',
      'Bearer k-idweb',
      'Bearer k-idweb',
      'Bearer k-pcc',
      'Bearer k-pcc',
    ]);
  });

  it('says "routed to 0 credentials" when nothing matches, and nothing is sent', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    const none = await emu.event({ type: 'Issue' });
    expect(none.routedTo).toBe(0);
    expect(none.message).toMatch(/^routed to 0 credentials: no credentials are configured/);
    await emu.credential({ apiKey: 'k', url: r.url, filters: { pcc: ['NOPE'] } });
    const unmatched = await emu.event({ type: 'Issue' });
    expect(unmatched).toMatchObject({ routedTo: 0, notifications: [] });
    expect(unmatched.message).toMatch(/^routed to 0 credentials: no credential's filters match PCCBook /);
    await emu.settle();
    expect(r.requests).toHaveLength(0);
  });

  it('sends one notification per body and credential for an Exchange', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'a', apiKey: 'ka', url: r.url });
    await emu.credential({ id: 'b', apiKey: 'kb', url: r.url });
    const issued = await emu.event({ type: 'Issue' });
    const exchanged = await emu.event({ type: 'Exchange', bookingId: issued.reservations[0]!.bookingId });
    expect(exchanged.routedTo).toBe(2);
    expect(exchanged.message).toBe('routed to 2 credentials');
    expect(exchanged.notifications).toHaveLength(4);
    await emu.settle();
    const statuses = await emu.admin<{ notifications: Array<{ bookingStatus: string; state: string }> }>(
      'GET',
      '/notifications?state=delivered',
    );
    expect(statuses.body.notifications.map((n) => n.bookingStatus).sort()).toEqual([
      'Exchanged',
      'Exchanged',
      'Issued',
      'Issued',
      'Issued-Exch',
      'Issued-Exch',
    ]);
  });

  it.each([
    [{ apiKey: '', url: 'https://r.example/h' }, 'invalid_credential', 'apiKey'],
    [{ apiKey: '   ', url: 'https://r.example/h' }, 'invalid_credential', 'apiKey'],
    [{ apiKey: 'k', url: 'not a url' }, 'invalid_credential', 'url'],
    [{ apiKey: 'k', url: 'ftp://r.example/h' }, 'invalid_credential', 'url'],
    [{ apiKey: 'k', url: 'http://r.example/h' }, 'http_not_allowed', 'url'],
    [{ apiKey: 'k', url: 'https://r.example/h', filters: { pcc: [] } }, 'invalid_credential', 'filters.pcc'],
    [
      { apiKey: 'k', url: 'https://r.example/h', filters: { idWeb: ['x'] } },
      'invalid_credential',
      'filters.idWeb[0]',
    ],
  ])('refuses credential %j with %s on %s', async (input, code, path) => {
    const emu = await deliveryEmulator();
    const answer = await emu.admin<{ error: { code: string; message: string; details: { path: string } } }>(
      'POST',
      '/credentials',
      input,
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe(code);
    expect(answer.body.error.details.path).toBe(path);
  });

  it('accepts http only with allowHttp, with a warning carried by every notification', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    const credential = await emu.credential({ apiKey: 'k', url: r.url });
    expect((credential as unknown as { warnings: string[] }).warnings[0]).toContain('option allowHttp');
    const result = await emu.event({ type: 'Issue' });
    await emu.settle();
    expect((await emu.notification(result.notifications[0]!.id)).warnings[0]).toContain('option allowHttp');
  });

  it('lists, refuses duplicate ids and deletes credentials', async () => {
    const emu = await deliveryEmulator();
    await emu.credential({ id: 'c1', apiKey: 'k', url: 'https://r.example/h' });
    expect(
      (await emu.admin('POST', '/credentials', { id: 'c1', apiKey: 'k', url: 'https://r.example/h' })).status,
    ).toBe(409);
    expect((await emu.credential({ apiKey: 'k', url: 'https://r.example/h' })).id).toBe('c2');
    expect((await emu.admin('DELETE', '/credentials/c1')).status).toBe(204);
    expect((await emu.admin('DELETE', '/credentials/c1')).status).toBe(404);
    const list = await emu.admin<{ credentials: Array<{ id: string }> }>('GET', '/credentials');
    expect(list.body.credentials.map((c) => c.id)).toEqual(['c2']);
  });

  it('preloads credentials, and a bad entry fails start-up naming its index and field', async () => {
    const emu = await deliveryEmulator(
      {},
      { credentials: [{ id: 'pre', apiKey: 'k', url: 'https://r.example/h' }] },
    );
    const list = await emu.admin<{ credentials: Array<{ id: string }> }>('GET', '/credentials');
    expect(list.body.credentials.map((c) => c.id)).toEqual(['pre']);
    await expect(
      deliveryEmulator(
        {},
        {
          credentials: [
            { apiKey: 'k', url: 'https://r.example/h' },
            { apiKey: 'k', url: 'http://x/' },
          ],
        },
      ),
    ).rejects.toMatchObject({ code: 'http_not_allowed', details: { path: 'credentials[1].url' } });
  });

  it('refuses a preloaded ApiKey the Authorization header cannot carry, naming its index and field', async () => {
    await expect(
      deliveryEmulator({}, { credentials: [{ apiKey: 'k\r\nX-Injected: 1', url: 'https://r.example/h' }] }),
    ).rejects.toMatchObject({ code: 'invalid_credential', details: { path: 'credentials[0].apiKey' } });
  });

  it('stops serve --config at a credential whose ApiKey is outside Latin-1, naming the file entry', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'reportbo-config-'));
    const file = join(dir, 'emulator.json');
    writeFileSync(
      file,
      JSON.stringify({
        credentials: [
          { id: 'ok', apiKey: 'k', url: 'https://r.example/h' },
          { apiKey: 'ключ', url: 'https://r.example/h' },
        ],
      }),
    );
    try {
      const run = await runCli(['serve', '--port', '0', '--config', file]);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('credentials[1].apiKey');
      expect(run.stderr).toContain('"к" (U+043A) at position 1, outside Latin-1');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
