import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { IDLE_CONNECTION_MS, type RunningEmulator, startServer } from '../src/server.js';

const running: RunningEmulator[] = [];
afterAll(async () => {
  for (const r of running.splice(0)) await r.close();
});

/** One GET on a kept-alive connection: its status and Keep-Alive header. */
function get(url: string): Promise<{ status: number; keepAlive: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { connection: 'keep-alive' } }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, keepAlive: res.headers['keep-alive']?.toString() }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the emulator keeps an idle connection open as IIS does', () => {
  it('tells a kept-alive client it may reuse the connection for 120 s, not Node’s 5 s', async () => {
    const emu = await startServer({ port: 0, logLevel: 'silent' });
    running.push(emu);
    for (const path of ['/__admin/health', '/api/1.7/AuthService.json/GetAccessToken']) {
      const { keepAlive } = await get(`${emu.url}${path}`);
      expect(keepAlive, path).toBe(`timeout=${IDLE_CONNECTION_MS / 1000}`);
    }
    expect(IDLE_CONNECTION_MS).toBe(120_000);
  });
});
