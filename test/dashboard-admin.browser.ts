/**
 * The dashboard in chromium against the admin API's door (docs/admin-api.md "Security"): with a
 * token it asks once and keeps it for the tab; dropped from the live stream for falling behind, it
 * reconnects and reads everything again. Skipped without /usr/bin/chromium, as test/dashboard.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { STREAM_CLIENT_BUFFER_BYTES } from '../src/admin/stream.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';

const running: RunningEmulator[] = [];
// Registered before useChromium's hooks, so it runs after them (after-hooks run last-registered
// first): the pages are closed before their emulators.
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});
const { newPage, pageErrors } = useChromium();
/**
 * Console lines these tests cause on purpose: the refused first try (401), and the dropped stream
 * (its connection is destroyed, not ended: a client that does not read cannot be sent the end).
 */
const EXPECTED = /\b401\b|ERR_INCOMPLETE_CHUNKED_ENCODING/;
// Registered after useChromium's hooks, so it runs before the one that fails a test on page errors.
afterEach(() => {
  const unexpected = pageErrors.splice(0).filter((line) => !EXPECTED.test(line));
  pageErrors.push(...unexpected);
});

async function emulator(settings: { adminToken?: string } = {}): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, clock: 'manual', logLevel: 'silent', ...settings });
  running.push(r);
  return r;
}

describe.skipIf(!haveChromium)('the dashboard and the admin API door', () => {
  it('asks for the admin token once, keeps it for the tab, and drives the emulator with it', async () => {
    const token = 'dashboard-token-5c1e';
    const emu = await emulator({ adminToken: token });
    const page = await newPage();
    const prompts: string[] = [];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.message());
      void dialog.accept(token);
    });
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    expect(prompts).toHaveLength(1);
    expect(prompts[0]).toContain('REPORTBO_ADMIN_TOKEN');
    const before = emu.emulator.clock.now().getTime();
    await page.click('#advance-hour');
    await waitText(page, '#status', /Clock moved/);
    expect(emu.emulator.clock.now().getTime() - before).toBe(3_600_000);
    // A reload in the same tab keeps the token: nothing is asked again.
    await page.reload();
    await page.waitForSelector('#live.on');
    expect(prompts).toHaveLength(1);
  });

  it('reconnects after being dropped from the live stream and reads the lists again', async () => {
    const emu = await emulator();
    const page = await newPage();
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    await page.waitForSelector('#tab-setup .count');
    expect(await page.locator('#tab-setup .count').textContent()).toBe('0');
    // A credential the stream never announces, then more events in one go than a client may have
    // waiting: the page's connection is dropped; only reading the lists again shows the credential.
    emu.emulator.delivery.credentials.add(
      { id: 'quiet', apiKey: 'k', url: 'https://receiver.test/' },
      'test',
    );
    const subject = 'x'.repeat(1000);
    for (let i = 0; i * 1000 < STREAM_CLIENT_BUFFER_BYTES + 1000; i++)
      emu.emulator.activity.publish({ kind: 'admin', change: 'credential_removed', subject });
    await waitText(page, '#tab-setup .count', /^1$/, 30_000);
    expect(await page.locator('#live').textContent()).toBe('live');
  });
});
