/**
 * Receiver outages from the dashboard, in real chromium: added from the set-up page through the admin
 * API (its message shown for a refused one), seen failing an attempt as simulated_outage without the
 * receiver being contacted, counted live, and removed.
 */
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

/** The page's `location`, inside `page.evaluate` (the tests are typed without the DOM library). */
declare const location: { hash: string };

const { open, pageErrors } = useChromium();

describe.skipIf(!haveChromium)('receiver outages in the dashboard', () => {
  it('adds an outage from the page, shows the attempt it failed and its count live, and removes it', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k-main', url: r.url });
    const page = await open(emu.url, '#setup');
    await waitText(page, '#outages-panel .empty', /No outage/);

    // A refused outage: the admin API's own message on the form.
    await page.selectOption('#outage-credentialId', 'main');
    await page.fill('#outage-attempts', '0');
    await page.click('#outage-submit');
    const refused = await emu.admin<{ error: { message: string } }>('POST', '/outages', {
      credentialId: 'main',
      attempts: 0,
    });
    expect(refused.status).toBe(400);
    expect(await waitText(page, '#outage-error', /./)).toBe(refused.body.error.message);
    await expect.poll(() => pageErrors.length, { timeout: WAIT_DEADLINE_MS }).toBe(1);
    expect(pageErrors.splice(0)[0]).toMatch(/status of 400/);

    await page.fill('#outage-attempts', '1');
    await page.fill('#outage-note', 'receiver redeploy');
    await page.click('#outage-submit');
    const row = await waitText(page, '#outage-table tbody tr', /o-1/);
    expect(row).toContain('main');
    expect(row).toContain('next 1 attempt (1 left)');
    expect(row).toContain('receiver redeploy');
    expect(
      (await emu.admin<{ outages: Array<{ id: string; credentialId: string }> }>('GET', '/outages')).body
        .outages,
    ).toEqual([expect.objectContaining({ id: 'o-1', credentialId: 'main', attempts: 1 })]);

    // The event's first attempt falls in the outage: the page shows it, the receiver saw nothing.
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    expect(r.requests).toHaveLength(0);
    await waitText(page, '#outage-table tbody tr td:nth-child(4)', /^ended$/); // counted live
    expect(await page.locator('#outage-table tbody tr td:nth-child(5)').textContent()).toBe('1');
    await page.evaluate('location.hash = ""');
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(7)`, /^simulated_outage$/);
    await page.click(`#notification-table tr[data-id="${id}"]`);
    await waitText(page, '#attempts li[data-number="1"]', /simulated outage o-1 "receiver redeploy"/);

    await page.evaluate('location.hash = "#setup"');
    await page.click('#remove-outage-o-1');
    await waitText(page, '#outages-panel .empty', /No outage/);
    expect((await emu.admin<{ outages: unknown[] }>('GET', '/outages')).body.outages).toEqual([]);
  });
});
