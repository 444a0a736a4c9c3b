/**
 * The dashboard at 1400 px wide (the browser helper's viewport), in real chromium (issue 28 §5): the
 * notification table, with a notification opened beside it, fits its panel: no column is cut off by
 * the panel's edge and nothing needs a horizontal scroll to be read; so do the tables of the set-up
 * and journal tabs (the credentials' ten columns hid half of them behind a sideways scroll).
 */
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

const { open } = useChromium();

/**
 * Every ancestor of the notification table that clips (overflow other than visible) must hold the
 * whole table: no content beyond its width, no cell beyond its right edge.
 */
const CLIPPED = `(() => {
  const table = document.getElementById('notification-table');
  const cut = [];
  for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
    if (getComputedStyle(el).overflowX === 'visible') continue;
    const box = el.getBoundingClientRect();
    if (el.scrollWidth > el.clientWidth + 1)
      cut.push(el.tagName + '.' + el.className + ': ' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px');
    for (const cell of table.querySelectorAll('th, td')) {
      const r = cell.getBoundingClientRect();
      if (r.width > 0 && r.right > box.right + 1)
        cut.push(el.tagName + '.' + el.className + ' cuts "' + cell.textContent + '" at ' + Math.round(box.right) + ' px (ends ' + Math.round(r.right) + ' px)');
    }
  }
  return { cut, page: document.documentElement.scrollWidth, viewport: window.innerWidth };
})()`;

/**
 * The same for every table shown (each one's id or its nearest panel's): what a clipping ancestor
 * cuts off or hides behind a horizontal scroll.
 */
const EVERY_TABLE_CUT = `(() => {
  const cut = [];
  for (const table of document.querySelectorAll('main table')) {
    if (table.getBoundingClientRect().width === 0) continue;
    const name = table.id || (table.closest('[id]')?.id ?? '?');
    for (let el = table.parentElement; el && el !== document.body; el = el.parentElement) {
      if (getComputedStyle(el).overflowX === 'visible') continue;
      const box = el.getBoundingClientRect();
      if (el.scrollWidth > el.clientWidth + 1)
        cut.push(name + ' in ' + el.tagName + '.' + el.className + ': ' + el.scrollWidth + ' px of content in ' + el.clientWidth + ' px');
      for (const cell of table.querySelectorAll('th, td')) {
        const r = cell.getBoundingClientRect();
        if (r.width > 0 && r.right > box.right + 1)
          cut.push(name + ' in ' + el.tagName + '.' + el.className + ' cuts "' + cell.textContent + '" at ' + Math.round(box.right) + ' px (ends ' + Math.round(r.right) + ' px)');
      }
    }
  }
  return { cut, page: document.documentElement.scrollWidth, viewport: window.innerWidth };
})()`;

describe.skipIf(!haveChromium)('the dashboard at 1400 px', () => {
  it('shows the notification table inside its panel, with and without a notification opened', async () => {
    const ok = await receiver();
    const failing = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({
      id: 'a-credential-with-a-long-name',
      apiKey: 'k-a',
      url: `${ok.url}/a/rather/long/path`,
    });
    await emu.credential({ id: 'b', apiKey: 'k-b', url: failing.url });
    for (let i = 0; i < 3; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    const first = (await emu.client.listNotifications()).notifications[0]!.id;
    const page = await open(emu.url, '#notifications');
    await page.waitForSelector('#notification-table tbody tr');
    expect(page.viewportSize()?.width).toBe(1400);
    // A page function as text: the tests are typed without the DOM library.
    const clipped = () =>
      page.evaluate(CLIPPED) as Promise<{ cut: string[]; page: number; viewport: number }>;
    // Nothing open: every column, the whole width.
    const alone = await clipped();
    expect(alone.cut).toEqual([]);
    expect(alone.page).toBeLessThanOrEqual(alone.viewport);
    expect(await page.locator('#notification-table th:visible').count()).toBe(11);
    // One open beside it: the columns the detail repeats give way, the rest fit.
    await page.click(`#notification-table tr[data-id="${first}"] a`);
    await page.waitForSelector(`#detail[data-id="${first}"]`);
    const beside = await clipped();
    expect(beside.cut).toEqual([]);
    expect(beside.page).toBeLessThanOrEqual(beside.viewport);
    expect(await page.locator('#notification-table th:visible').allTextContents()).toContain(
      'Next attempt at',
    );
  });

  it('shows every table of the set-up and journal tabs whole, without a sideways scroll', async () => {
    const ok = await receiver();
    const failing = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({
      id: 'a-credential-with-a-long-name',
      apiKey: 'k-a-rather-long-api-key-0123456789',
      url: `${ok.url}/a/rather/long/path/to/the/receiver`,
      filters: { pcc: ['AAA1', 'BBB2'], idWeb: [1001, 1002] },
    });
    await emu.credential({ id: 'b', apiKey: 'k-b', url: failing.url });
    await emu.admin('POST', '/users', {
      username: 'alice',
      password: 'pw',
      idWeb: 7,
      webDescription: 'A web of some length',
      versions: ['1.6', '1.7'],
    });
    await emu.admin('POST', '/faults', { kind: 'status', status: 503, count: 2 });
    await emu.admin('POST', '/outages', { credentialId: 'b', attempts: 1, note: 'planned maintenance' });
    await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'alice', Password: 'pw' }),
    });
    for (let i = 0; i < 3; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    const page = await open(emu.url, '#setup');
    await page.waitForSelector('#credential-table tbody tr .stat-failure');
    await page.waitForSelector('#charts-panel figure');
    for (const summary of await page.locator('.chart-figures summary').all()) await summary.click();
    const setup = (await page.evaluate(EVERY_TABLE_CUT)) as { cut: string[]; page: number; viewport: number };
    expect(setup.cut).toEqual([]);
    expect(setup.page).toBeLessThanOrEqual(setup.viewport);

    await page.click('#tab-journal');
    await page.waitForSelector('#journal-table tbody tr');
    const journal = (await page.evaluate(EVERY_TABLE_CUT)) as {
      cut: string[];
      page: number;
      viewport: number;
    };
    expect(journal.cut).toEqual([]);
    expect(journal.page).toBeLessThanOrEqual(journal.viewport);
  });
});
