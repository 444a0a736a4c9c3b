/**
 * The admin lists that grow with use and answer everything at once (no page): the GetAccessToken
 * journal (up to `journalEntries`, 1,000,000 at most), the reservations (one per booking) and the users. Their
 * answers are written in slices that give the event loop back (decision 0229), as the exports are:
 * a callback queued before the call runs before the answer has been read to its end.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../app.js';
import { createEmulator } from '../emulator.js';

const users = Array.from({ length: 30 }, (_, i) => ({
  username: `u${i}`,
  password: 'p',
  idWeb: i + 1,
  webDescription: 'x',
}));

describe('unpaged admin lists', () => {
  it.each([
    ['/__admin/requests', 'requests'],
    ['/__admin/reservations', 'reservations'],
    ['/__admin/users', 'users'],
  ])('%s is written in slices that give the event loop back, with every item', async (path, key) => {
    const emulator = createEmulator({ logLevel: 'silent', clock: 'manual' }, {}, { users });
    await emulator.ready;
    const app = createApp(emulator);
    for (let i = 0; i < 30; i++) {
      const token = await app.request('/api/1.7/AuthService.json/GetAccessToken', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'u0', Password: 'p' }),
      });
      expect(token.status).toBe(200);
      emulator.reservations.apply({ type: 'Issue' });
    }
    let served = false;
    setImmediate(() => {
      served = true;
    });
    const res = await app.request(path);
    const body = (await res.json()) as Record<string, unknown[]>;
    expect(served).toBe(true);
    expect(res.status).toBe(200);
    expect(body[key]).toHaveLength(30);
  });
});
