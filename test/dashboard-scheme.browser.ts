/**
 * The dashboard in the reader's dark scheme and on a phone, in real chromium (issue 41 §4, §5;
 * decision 0204): `prefers-color-scheme: dark` gives a dark page on which axe-core finds nothing
 * serious or critical, with a delivery open, a resend's plan shown and the Failures and Bulk retry
 * tabs; at 390 px no view scrolls sideways. Opening a row moves the keyboard to the delivery opened.
 */
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { OK_200, rawReceiver } from './helpers/raw-receiver.js';
import { behave, receiver } from './helpers/receiver.js';

const { open } = useChromium();

describe.skipIf(!haveChromium)('the dashboard in a dark scheme and at 390 px', () => {
  it('honours prefers-color-scheme: dark with no serious or critical axe finding, and fits 390 px', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(503, '{"error":"busy"}') });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k', url: r.url });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const page = await open(emu.url, `#notifications/${id}`);
    try {
      // Opening another row moves the keyboard to what was opened, not to <body>.
      await page.click('#notification-table tr[data-id="n-000002"] a.row-link');
      await expect
        .poll(() =>
          page.evaluate(
            'document.activeElement?.closest("#detail")?.dataset.id + ":" + document.activeElement?.id',
          ),
        )
        .toBe('n-000002:detail-title');
      await page.click(`#notification-table tr[data-id="${id}"] a.row-link`);
      await page.emulateMedia({ colorScheme: 'dark' });
      await page.waitForSelector(`#detail[data-id="${id}"] #attempts`);
      const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(background).toBe('rgb(16, 20, 29)');
      // One axe run for the delivery: the resend's plan only adds to it, and every section expanded
      // shows what the closed ones hide (the scrolling <pre> blocks take focus and have names).
      await page.click('#resend');
      await page.waitForSelector('#resend-plan');
      await page.evaluate('document.querySelectorAll("#detail details").forEach((d) => { d.open = true; })');
      expect(await axeFindings(page), 'dark: a delivery expanded, a resend announced').toEqual([]);
      await page.click('#resend-cancel');
      for (const tab of ['triage', 'retry']) {
        await page.click(`#tab-${tab}`);
        await page.waitForSelector(`section#${tab}`);
        if (tab === 'triage') await waitText(page, '#tab-triage .count', /^2$/);
        expect(await axeFindings(page), `dark: ${tab}`).toEqual([]);
      }

      // A phone: one column, nothing wider than the screen.
      await page.setViewportSize({ width: 390, height: 800 });
      await page.goto(`${emu.url}/__admin/ui#notifications/${id}`);
      await page.waitForSelector(`#detail[data-id="${id}"] #attempts`);
      const width = () => page.evaluate('document.documentElement.scrollWidth');
      expect(await width(), 'a delivery open at 390 px').toBeLessThanOrEqual(390);
      expect(await axeFindings(page), '390 px: a delivery open').toEqual([]);
      const wide: string[] = [];
      for (const tab of ['setup', 'journal', 'triage', 'retry', 'verify']) {
        await page.click(`#tab-${tab}`);
        await page.waitForSelector(`#tab-${tab}.active`);
        const w = (await width()) as number;
        if (w > 390) wide.push(`${tab}: ${w}`);
      }
      expect(wide, 'views wider than 390 px').toEqual([]);
    } finally {
      await page.emulateMedia({ colorScheme: null });
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  });

  it('shows the attempt in flight under the timeline, then the attempt it became', async () => {
    // The receiver holds the attempt until the page, opened meanwhile, has shown it.
    let held: (socket: Socket) => void = () => {};
    const arrived = new Promise<Socket>((resolve) => {
      held = resolve;
    });
    const r = await rawReceiver({ answer: (socket) => held(socket) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k', url: r.url });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    const page = await open(emu.url, `#notifications/${id}`);
    await waitText(page, '#attempt-in-flight', /^Attempt 1\/5: sending… /);
    (await arrived).write(OK_200);
    await emu.settle();
    await page.waitForSelector('#attempts li[data-number="1"]');
    await expect.poll(() => page.locator('#attempt-in-flight').count()).toBe(0);
  });

  it('says a mistyped time is not one and not applied, on its field, until it is fixed', async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    const page = await open(emu.url);
    await page.fill('#filter-since', '2026-13-45 10:00');
    await waitText(
      page,
      '#filter-time-error',
      /^"2026-13-45 10:00" is not a time like 2026-04-27 10:00 .*not applied\.$/,
    );
    expect(await page.locator('#filter-since').getAttribute('aria-invalid')).toBe('true');
    expect(await axeFindings(page), 'a mistyped time').toEqual([]);
    await page.fill('#filter-since', '2026-04-27 10:00');
    await expect.poll(() => page.locator('#filter-time-error').count()).toBe(0);
    expect(await page.locator('#filter-since').getAttribute('aria-invalid')).toBeNull();
  });
});
