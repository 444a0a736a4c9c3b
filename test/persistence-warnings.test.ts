import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startServer } from '../src/server.js';

// A notification's record names its credential's warnings instead of copying them (src/store/
// change-records.ts). Read back, it must get the warnings of its credential as it was when the
// notification was made: not those of the credential that replaced it, and not none when the
// credential was deleted since.

const root = mkdtempSync(join(tmpdir(), 'reportbo-warnings-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const start = () =>
  startServer({
    port: 0,
    logLevel: 'silent',
    allowHttp: true,
    dataDir: join(root, 'data'),
    clock: 'manual',
    clockStart: '2026-04-27T10:00:00Z',
  });

async function admin(emu: RunningEmulator, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(`${emu.url}/__admin${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  const text = await res.text();
  return text ? JSON.parse(text) : undefined;
}

/** The warnings of every notification, by id. */
async function warnings(emu: RunningEmulator): Promise<Record<string, unknown>> {
  const list = (await admin(emu, 'GET', '/notifications')) as { notifications: Array<{ id: string }> };
  const out: Record<string, unknown> = {};
  for (const { id } of list.notifications)
    out[id] = ((await admin(emu, 'GET', `/notifications/${id}`)) as { warnings: unknown }).warnings;
  return out;
}

describe("a notification's warnings across a restart", () => {
  it('are those of its credential when it was made, though the credential was replaced or deleted since', async () => {
    const emu = await start();
    const http = (id: string) => ({ id, apiKey: `key-${id}-000000000`, url: 'http://127.0.0.1:9/hook' });
    await admin(emu, 'POST', '/credentials', http('c1'));
    await admin(emu, 'POST', '/credentials', http('c2'));
    await admin(emu, 'POST', '/events', { type: 'Issue' });
    // c1 now sends over https: no warning about plain http; c2 is gone.
    await admin(emu, 'PUT', '/credentials/c1', {
      apiKey: 'key-c1-111111111',
      url: 'https://127.0.0.1:9/hook',
    });
    await admin(emu, 'DELETE', '/credentials/c2');
    await admin(emu, 'POST', '/events', { type: 'Issue' });
    const before = await warnings(emu);
    await emu.close();
    // What the test stands on: warnings that differ between the credential's versions.
    const seen = Object.values(before).map((w) => JSON.stringify(w));
    expect(new Set(seen).size, JSON.stringify(before)).toBeGreaterThan(1);
    expect(seen.filter((w) => w.includes('plain http')).length, JSON.stringify(before)).toBe(2);

    const again = await start();
    try {
      expect(await warnings(again)).toEqual(before);
    } finally {
      await again.close();
    }
  });
});
