/**
 * The dashboard in chromium against the admin API's door (docs/admin-api.md "Security"): with a
 * token it asks once and keeps it for the tab; dropped from the live stream for falling behind, it
 * reconnects and reads everything again. Skipped without /usr/bin/chromium, as test/dashboard.test.ts.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_CLIENT_BUFFER_BYTES } from '../src/admin/stream.js';
import { type RunningEmulator, startServer } from '../src/server.js';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
if (!haveChromium) console.warn(`dashboard browser tests skipped: ${CHROMIUM} not found`);

let profile: string;
let browser: BrowserContext;
const running: RunningEmulator[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  if (!haveChromium) return;
  profile = await mkdtemp(join(tmpdir(), 'reportbo-chromium-'));
  browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  await Promise.all(browser.pages().map((p) => p.close()));
});
afterEach(async () => {
  await Promise.all(browser?.pages().map((p) => p.close()) ?? []);
  await Promise.all(running.splice(0).map((r) => r.close()));
  expect(pageErrors.splice(0)).toEqual([]);
});
afterAll(async () => {
  await browser?.close();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function emulator(settings: { adminToken?: string } = {}): Promise<RunningEmulator> {
  const r = await startServer({ port: 0, clock: 'manual', logLevel: 'silent', ...settings });
  running.push(r);
  return r;
}

async function newPage(): Promise<Page> {
  const page = await browser.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // Expected network lines: the refused first try (401), and the dropped stream (its connection
    // is destroyed, not ended: a client that does not read cannot be sent the end).
    const expected = /\b401\b|ERR_INCOMPLETE_CHUNKED_ENCODING/;
    if (m.type() === 'error' && !expected.test(m.text())) pageErrors.push(m.text());
  });
  return page;
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
    await page.waitForFunction(() =>
      /Clock moved/.test(
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
        ).document.getElementById('status').textContent,
      ),
    );
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
    await page.waitForFunction(
      () =>
        (
          globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }
        ).document.querySelector('#tab-setup .count')?.textContent === '1',
      undefined,
      { timeout: 30_000 },
    );
    expect(await page.locator('#live').textContent()).toBe('live');
  });
});
