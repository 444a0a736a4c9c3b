/**
 * The dashboard's SDK check tab in real chromium: the command line follows the form, a real
 * `verify-client --json` report chosen as a file is shown with the console's words (each failed
 * case opened with its evidence, rule, fix, calls and the harness's output), a file that is no report
 * is refused with what to choose, and axe-core finds nothing serious. The page runs no command.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyClient } from '../src/index.js';
import { clientJson } from '../src/verify-client/report.js';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { ROOT } from './helpers/cli.js';
import { deliveryEmulator } from './helpers/delivery.js';

const { open } = useChromium();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dashboard-verify-client-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.skipIf(!haveChromium)('the SDK check tab', () => {
  it('builds the command line from the form, shows a chosen report as the console does, refuses a file that is none', async () => {
    const exec = `SAMPLE_BUG=no-cache "${process.execPath}" ${join(ROOT, 'test/fixtures/verify-client/node-buggy.mjs')}`;
    const report = await verifyClient({ exec, only: ['well-formed-request', 'reuses-valid-token'] });
    const file = join(dir, 'sdk.json');
    await writeFile(file, clientJson(report));
    const emu = await deliveryEmulator();
    const page = await open(emu.url, '#verify-client');
    await page.waitForSelector('section#verify-client');

    await page.fill('#verify-client-exec', 'python3 my harness.py');
    await page.selectOption('#verify-client-version', '1.6');
    await page.selectOption('#verify-client-variant', 'soap11');
    await waitText(page, '#verify-client-command', /--version 1\.6/);
    expect(await page.locator('#verify-client-command').textContent()).toBe(
      "npx reportbo-emulator verify-client --exec 'python3 my harness.py' --version 1.6 --variant soap11 --json verify-client.json",
    );

    await page.setInputFiles('#verify-client-file', file);
    await waitText(
      page,
      '#verify-client-summary',
      /^FAILED: 2 cases: 1 passed, 1 failed, 0 warned, 0 skipped/,
    );
    const failed = page.locator('#verify-client-cases tr[data-id="reuses-valid-token"]');
    expect(await failed.getAttribute('data-status')).toBe('failed');
    const text = (await failed.textContent()) ?? '';
    expect(text).toContain('no cache: called GetAccessToken 20 times');
    expect(await failed.locator('details').getAttribute('open')).not.toBeNull(); // a failure opens by itself
    expect(text).toContain(report.cases[1]!.fix);
    expect(await failed.locator('ol.calls li').count()).toBe(20);
    expect(await page.locator('#tab-verify-client').textContent()).toMatch(/1 failed/);
    expect(await axeFindings(page)).toEqual([]);

    const notReport = join(dir, 'other.json');
    await writeFile(notReport, JSON.stringify({ receiver: 'https://r.example', cases: 'none' }));
    await page.setInputFiles('#verify-client-file', notReport);
    await waitText(
      page,
      '#verify-client-error',
      /other\.json is not a verify-client report \(it needs exec and cases\)/,
    );
    expect(await page.locator('#verify-client-report').count()).toBe(0);
  });
});
