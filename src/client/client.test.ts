import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startServer } from '../server.js';
import { AdminClient } from './client.js';
import { AdminApiError, AdminUnreachableError } from './errors.js';

let running: RunningEmulator;
beforeAll(async () => {
  running = await startServer({ port: 0, clock: 'manual', seed: 7, logLevel: 'silent' });
});
afterAll(() => running.close());

describe('AdminClient', () => {
  it('reads health from a running emulator', async () => {
    const client = new AdminClient(`${running.url}/`);
    expect(client.baseUrl).toBe(running.url);
    expect(await client.health()).toMatchObject({ status: 'ok', clock: 'manual', seed: 7 });
  });

  it('reads the effective settings', async () => {
    const config = await new AdminClient(running.url).config();
    expect(config).toMatchObject({ clock: { mode: 'manual', hourMs: null }, seed: 7, trustedCaCount: 0 });
  });

  it('turns an error answer into an AdminApiError with the server code, status and request', async () => {
    const client = new AdminClient(running.url);
    const err = await client.getNotification('n-none').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdminApiError);
    expect(err).toMatchObject({
      status: 404,
      category: 'not_found',
      request: 'GET /__admin/notifications/n-none',
    });
    expect((err as AdminApiError).code).toMatch(/not_found/);
  });

  it('says the emulator is unreachable, naming the URL, when nothing listens', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const err = await new AdminClient(`http://127.0.0.1:${port}`).health().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AdminUnreachableError);
    expect((err as Error).message).toContain(
      `cannot reach the emulator at http://127.0.0.1:${port} (ECONNREFUSED)`,
    );
  });
});
