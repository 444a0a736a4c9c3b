/**
 * Bulk retry from the dashboard, in real chromium (issue 28 §4): "retry every failed delivery of
 * credential C since T" counts first (a dry run of POST /__admin/notifications/resend-failed: nothing
 * is sent), names the ones it will take, then runs and says what it did; a changed input drops a count
 * made for the old one, and a refusal is shown on the field until the input changes.
 */
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

const { open, pageErrors } = useChromium();

describe.skipIf(!haveChromium)('bulk retry from the dashboard in chromium', () => {
  it('counts the failed deliveries of a credential since T, then retries them and shows the result', async () => {
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const good = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'bad', apiKey: 'k-bad', url: bad.url });
    await emu.event({ type: 'Issue' }); // n-000001
    await emu.settle();
    for (let i = 0; i < 4; i++) await emu.advance({ to: 'next-batch' }); // 5 failed attempts: exhausted
    await emu.settle();
    const later = (await emu.event({ type: 'Issue' })).at; // n-000002: one failure, still pending
    await emu.settle();
    await emu.credential({ id: 'good', apiKey: 'k-good', url: good.url }); // nothing failed here
    const sentBefore = bad.requests.length;

    const page = await open(emu.url, '#retry');
    await page.waitForSelector('#retry-credential');
    await page.selectOption('#retry-credential', 'bad');
    await page.fill('#retry-since', '2026-04-27 00:00');
    await page.click('#retry-count');
    await waitText(
      page,
      '#retry-count-text',
      /^2 failed deliveries of bad since 2026-04-27 00:00:00: 1 exhausted \(resent as new notifications\), 1 pending \(retried now\)\.$/,
    );
    expect(await page.locator('#retry-ids a').allTextContents()).toEqual(['n-000001', 'n-000002']);
    expect(bad.requests).toHaveLength(sentBefore); // counting sends nothing

    // Another time: the count made for the old input is gone; counted again it takes the later one only.
    await page.fill('#retry-since', later.replace('T', ' ').replace(/(\.\d+)?Z$/, ''));
    // The page redraws on the next frame: wait for it.
    await expect.poll(() => page.locator('#retry-preview').count()).toBe(0);
    await page.click('#retry-count');
    await waitText(
      page,
      '#retry-count-text',
      /^1 failed delivery of bad since .*: 0 exhausted .*, 1 pending/,
    );

    // A time that is none: refused on the field, and the message goes once the input changes.
    await page.fill('#retry-since', 'yesterday');
    await page.click('#retry-count');
    await waitText(page, '#retry-error', /^since: "yesterday" is not a time/);
    expect(await page.locator('#retry-since').getAttribute('aria-invalid')).toBe('true');
    await page.fill('#retry-since', '2026-04-27 00:00');
    await expect.poll(() => page.locator('#retry-error').count()).toBe(0);
    await expect.poll(() => page.locator('#retry-since').getAttribute('aria-invalid')).toBeNull();

    // A credential with nothing failed: the count says so and offers nothing to run.
    await page.selectOption('#retry-credential', 'good');
    await page.click('#retry-count');
    await waitText(page, '#retry-count-text', /^No failed delivery of good since/);
    expect(await page.locator('#retry-run').isDisabled()).toBe(true);

    // Run it for bad, with the receiver healthy again.
    bad.setDefault(behave.status(200));
    await page.selectOption('#retry-credential', 'bad');
    await page.click('#retry-count');
    await waitText(page, '#retry-run', /^Retry these 2$/);
    await page.click('#retry-run');
    await waitText(
      page,
      '#retry-result',
      /^Bulk retry of 2: 1 exhausted resent as n-000003; 1 pending retried now \(n-000002\)\./,
    );
    expect(await page.locator('#status').textContent()).toMatch(/^Bulk retry of 2:/);
    await emu.settle();
    expect((await emu.notification('n-000003')).state).toBe('delivered');
    expect((await emu.notification('n-000002')).state).toBe('delivered');
    expect(bad.requests.length).toBe(sentBefore + 2);

    // The new notification opens from the result.
    await page.click('#retry-resent a');
    await page.waitForSelector('#detail[data-id="n-000003"]');
    expect(pageErrors).toEqual([]);
  });
});
