/**
 * The dashboard for a keyboard and a screen reader, in real chromium: axe-core (from npm, run inside
 * the page) finds no serious or critical violation on any tab, with a delivery and a journal call
 * opened; and the main task ("why did booking X fail, what did my receiver answer, resend it, watch it
 * succeed") is done with the keyboard alone.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

const { open, newPage } = useChromium();
/** A delivered notification after a 503, a user and a GetAccessToken call: every tab has something. */
async function populated() {
  const r = await receiver();
  r.enqueue({
    kind: 'status',
    status: 503,
    body: '{"error":"busy","retryIn":120}',
    headers: { 'Retry-After': '120', 'Content-Type': 'application/json' },
  });
  const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
  await emu.credential({ id: 'main', apiKey: 'k-main', url: r.url });
  await emu.admin('POST', '/users', {
    username: 'alice',
    password: 'pw',
    idWeb: 7,
    webDescription: 'A',
    versions: ['1.7'],
  });
  await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'alice', Password: 'pw' }),
  });
  const created = await emu.event({ type: 'Issue' });
  await emu.settle();
  return { emu, r, id: created.notifications[0]!.id, bookingNumber: created.reservations[0]!.bookingNumber };
}

describe.skipIf(!haveChromium)('the dashboard for a keyboard and a screen reader', () => {
  it('axe finds what is serious or critical (a button without a name, text without contrast), and only that', async () => {
    const page = await newPage();
    await page.setContent(
      '<html lang="en"><title>t</title><body><h2>no h1, no main</h2><button></button>' +
        '<p style="color:#bbb;background:#fff">faint</p></body></html>',
    );
    // heading-order, page-has-heading-one and region (moderate) would fire too: the helper skips
    // the rules whose impact is minor or moderate, which can report nothing serious or critical.
    expect((await axeFindings(page)).map((f) => f.split(' ')[0])).toEqual(['button-name', 'color-contrast']);
  });

  it('has no serious or critical axe-core finding on any tab, with a delivery and a call opened', async () => {
    const { emu, id } = await populated();
    const page = await open(emu.url, `#notifications/${id}`);
    await page.waitForSelector(`#detail[data-id="${id}"] #attempts`);
    await page.locator('#attempts details.answer summary').first().click();
    expect(await axeFindings(page), 'notifications').toEqual([]);

    for (const tab of ['setup', 'retry', 'verify']) {
      await page.click(`#tab-${tab}`);
      await page.waitForSelector(`section#${tab}`);
      expect(await axeFindings(page), tab).toEqual([]);
    }
    await page.click('#tab-journal');
    await page.click('#journal-table tr[data-id="r-000001"] a');
    await page.waitForSelector('#journal-detail[data-id="r-000001"]');
    expect(await axeFindings(page), 'journal').toEqual([]);
  });

  it('does the main task by keyboard alone (find the booking, read the answer, resend, see it delivered); a reload keeps the view', async () => {
    const { emu, r, id, bookingNumber } = await populated();
    await emu.event({ type: 'Issue' }); // another delivery, so the filter has something to leave out
    await emu.settle();
    const page = await open(emu.url);
    await page.waitForSelector(`#notification-table a.row-link`);

    // Why did booking X fail: type it into the Booking filter, then open its delivery with Enter.
    await tabTo(page, '#filter-booking');
    await page.keyboard.type(bookingNumber);
    await expect.poll(() => page.locator('#notification-table tbody tr').count()).toBe(1);
    await tabTo(page, `#notification-table tr[data-id="${id}"] a.row-link`);
    await page.keyboard.press('Enter');
    await page.waitForSelector(`#detail[data-id="${id}"] #attempts`);
    expect(await page.evaluate('location.hash')).toBe(`#notifications/${id}?booking=${bookingNumber}`);

    // What did my receiver answer: open the attempt's answer with Enter.
    await tabTo(page, '#attempts li[data-number="1"] details.answer summary');
    await page.keyboard.press('Enter');
    // A JSON answer, indented for reading.
    expect(await page.locator('#attempts li[data-number="1"] .response-body').textContent()).toBe(
      '{\n  "error": "busy",\n  "retryIn": 120\n}',
    );

    // Resend it and watch it succeed.
    await tabTo(page, '#retry-now');
    await page.keyboard.press('Space');
    await waitText(page, '#status', new RegExp(`^${id}: attempt 2/5 → 200 \\(delivered\\)$`));
    await page.waitForSelector('#attempts li[data-number="2"].ok');
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(7)`, /^200$/);
    expect(r.requests).toHaveLength(3);

    // The address is the delivery's permalink: a reload opens the same one, with the same filter.
    await page.reload();
    await page.waitForSelector(`#detail[data-id="${id}"] #attempts li[data-number="2"]`);
    expect(await page.locator('#filter-booking').inputValue()).toBe(bookingNumber);
  });
});

/** Presses Tab (at most 200 times) until the element `selector` has the focus. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`)) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}
