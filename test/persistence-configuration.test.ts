import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliveryEmulator } from './helpers/delivery.js';

// The configuration read back from a data dir goes through the stores' own `apply` (decision 0266):
// a credential no longer accepted is left out, and what a config or scenario preloads wins.
const user = (webDescription: string) => ({
  username: 'ana',
  password: 'secret',
  idWeb: 1,
  webDescription,
  versions: ['1.6', '1.7'],
});

describe('the configuration read back from a data dir', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'reportbo-configuration-'));
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  it('leaves out a credential no longer accepted, and a preload of the same name wins', async () => {
    const first = await deliveryEmulator({ dataDir, allowHttp: true });
    await first.credential({ id: 'plain', apiKey: 'k', url: 'http://127.0.0.1:9/hook' });
    await first.credential({ id: 'kept', apiKey: 'k', url: 'https://127.0.0.1:9/kept' });
    await first.credential({ id: 'mine', apiKey: 'k', url: 'https://127.0.0.1:9/read-back' });
    await first.admin('POST', '/users', user('read-back'));
    await first.server.close();
    const emu = await deliveryEmulator(
      { dataDir },
      {
        credentials: [{ id: 'mine', apiKey: 'k', url: 'https://127.0.0.1:9/preloaded' }],
        users: [user('preloaded')],
      },
    );
    const { body } = await emu.admin<{ credentials: Array<{ id: string; url: string }> }>(
      'GET',
      '/credentials',
    );
    expect(body.credentials.map(({ id, url }) => ({ id, url }))).toEqual([
      { id: 'mine', url: 'https://127.0.0.1:9/preloaded' },
      { id: 'kept', url: 'https://127.0.0.1:9/kept' },
    ]);
    const users = await emu.admin<{ users: Array<{ username: string; webDescription: string }> }>(
      'GET',
      '/users',
    );
    expect(users.body.users).toEqual([
      expect.objectContaining({ username: 'ana', webDescription: 'preloaded' }),
    ]);
    await emu.server.close();
  });
});
