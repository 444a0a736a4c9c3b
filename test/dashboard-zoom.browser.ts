/**
 * axe-core in the states issue 41 §4 lists, at 200% zoom (1280×720 zoomed: a 640×360 CSS viewport)
 * and at 390 px: a delivery with every section expanded, the resend plan (the page's dialog), search
 * results, the paging bar, and the conformance page with a failed case's evidence open. Nothing
 * serious or critical, and no view wider than the screen.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';
import { verifyTestReceiver } from './helpers/verify-receivers.js';

const { open } = useChromium();

/** The serious and critical findings, and the page's width when it is wider than the viewport. */
async function check(page: Page, viewport: number, state: string): Promise<string[]> {
  const findings = (await axeFindings(page)).map((f) => `${state}: ${f}`);
  const width = (await page.evaluate('document.documentElement.scrollWidth')) as number;
  if (width > viewport) findings.push(`${state}: ${width} px wide in a ${viewport} px viewport`);
  return findings;
}

describe.skipIf(!haveChromium)('axe at 200% zoom and at 390 px', () => {
  it('finds nothing serious or critical in a delivery, the resend plan, search results, the pager and the conformance page', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(503, '{"error":"busy"}') });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k', url: r.url });
    // More than a search's page of 100: the search results show the pager. (A list of 300 rows, the
    // pager's other way in, would check the same rows three times over, and each axe run over it
    // cost chromium seconds.)
    for (let i = 0; i < 101; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    const verifyReceiver = await verifyTestReceiver('conformance-key', 'answers-202');
    const id = 'n-000101';
    const page = await open(emu.url, `#notifications/${id}`);
    const findings: string[] = [];
    try {
      for (const [size, label] of [
        [{ width: 640, height: 360 }, '200%'],
        [{ width: 390, height: 800 }, '390 px'],
      ] as const) {
        await page.setViewportSize(size);
        await page.goto(`${emu.url}/__admin/ui#notifications/${id}`);
        await page.waitForSelector(`#detail[data-id="${id}"] #attempts`);
        // One state holds two of the list: the plan only adds to the delivery.
        await page.click('#resend');
        await page.waitForSelector('#resend-plan');
        await page.evaluate(
          'document.querySelectorAll("#detail details").forEach((d) => { d.open = true; })',
        );
        findings.push(
          ...(await check(page, size.width, `${label}, a delivery expanded and its resend plan`)),
        );
        await page.click('#resend-cancel');
        await page.waitForSelector('#resend-plan', { state: 'detached' });
        await page.fill('#filter-text', 'issued');
        await page.keyboard.press('Enter');
        await waitText(page, '#notification-list h2', /^Newest 100 of 101 matches$/);
        await page.waitForSelector('#page-oldest');
        findings.push(...(await check(page, size.width, `${label}, search results and the pager`)));
        await page.fill('#filter-text', '');
        await page.keyboard.press('Enter');

        await page.click('#tab-verify');
        await page.waitForSelector('#verify-case-acknowledges-issue', { state: 'attached' });
        await page.fill('#verify-receiver', verifyReceiver.url);
        await page.fill('#verify-api-key', 'conformance-key');
        await page.check('#verify-allow-http');
        await page.check('#verify-case-acknowledges-issue');
        await page.fill('#verify-timeout', '5000');
        await page.click('#verify-run');
        await waitText(page, '#verify-summary', /^FAILED: /);
        await page.click('#verify-cases tr[data-id="acknowledges-issue"] details.evidence summary');
        findings.push(...(await check(page, size.width, `${label}, the conformance page`)));
        await page.click('#tab-notifications');
      }
      expect(findings).toEqual([]);
    } finally {
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });
});
