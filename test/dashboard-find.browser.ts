/**
 * Find and export in the dashboard, in real chromium: search inside the bodies (a passenger's name,
 * any text), filters by event, last status class, attempt count and credential, and the filtered
 * list exported as HAR 1.2 (checked against the HAR 1.2 schema) and NDJSON from the page's buttons;
 * no search sent but the one typed (decision 0254).
 */
import { readFile } from 'node:fs/promises';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitCount, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { HAR_SCHEMA } from './helpers/har-schema.js';
import { behave, receiver } from './helpers/receiver.js';

const { newPage, open } = useChromium();

const ids = (page: Page) =>
  page
    .locator('#notification-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

async function saved(page: Page, button: string): Promise<{ name: string; text: string }> {
  const downloading = page.waitForEvent('download');
  await page.click(button);
  const download = await downloading;
  const path = await download.path();
  return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
}

describe.skipIf(!haveChromium)('finding and exporting notifications in chromium', () => {
  it('sends a search only for what is typed: no warm-up as the page connects or the box is entered (decision 0254)', async () => {
    const good = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const page = await newPage();
    const searched: string[] = [];
    page.on('request', (r) => {
      const q = new URL(r.url()).searchParams.get('q');
      if (q !== null) searched.push(q);
    });
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    await waitCount(page, '#notification-table tbody tr', 1);
    await page.focus('#filter-text');
    await page.fill('#filter-text', 'n-000001');
    await page.keyboard.press('Enter');
    await waitText(page, '#notification-list h2', /^1 matches$/);
    expect(new Set(searched)).toEqual(new Set(['n-000001']));
  });

  it('searches inside bodies and filters by event, status class, attempts and credential; exports what is shown as HAR and NDJSON', async () => {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    await emu.credential({ id: 'bad', apiKey: 'k', url: bad.url });
    const page = await open(emu.url);
    const first = await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.event({ type: 'Void', bookingId: first.reservations[0]!.bookingId });
    await emu.settle();
    await waitCount(page, '#notification-table tbody tr', 6);

    // A passenger's last name is only inside the body (n-000003/4 are the second booking).
    const body = (await emu.notification('n-000003')).body as { Pax: Array<{ LastName: string }> };
    const firstBody = (await emu.notification('n-000001')).body as { Pax: Array<{ LastName: string }> };
    const lastName = body.Pax.map((p) => p.LastName).find(
      (n) => !firstBody.Pax.some((p) => p.LastName === n),
    )!;
    await page.fill('#filter-text', lastName.toLowerCase());
    await waitCount(page, '#notification-table tbody tr', 2);
    expect(await ids(page)).toEqual(['n-000004', 'n-000003']);
    // Still found when a new notification with that text arrives: a redelivery of that booking.
    // keepPending: the failing original stays pending beside it, for the attempts filter below.
    await emu.admin('POST', `/reservations/${(await emu.notification('n-000003')).bookingId}/redeliver`, {
      status: 'Issued',
      keepPending: true,
    });
    await waitCount(page, '#notification-table tbody tr', 4);
    expect(await page.locator('#filter-text').inputValue()).toBe(lastName.toLowerCase());
    await page.fill('#filter-text', '');
    await waitCount(page, '#notification-table tbody tr', 8);

    // Event (the BookingStatus carried), last status class, attempts and credential.
    await page.selectOption('#filter-event', 'Voided');
    await waitCount(page, '#notification-table tbody tr', 2);
    expect(await ids(page)).toEqual(['n-000006', 'n-000005']);
    await page.selectOption('#filter-status-class', '5xx');
    await waitCount(page, '#notification-table tbody tr', 1);
    expect(await page.locator('#notification-table tbody tr td:nth-child(4)').textContent()).toBe('bad');
    await page.selectOption('#filter-event', '');
    await page.selectOption('#filter-credential', 'bad');
    await waitCount(page, '#notification-table tbody tr', 4);
    await emu.advance({ to: 'next-batch' });
    await page.selectOption('#filter-attempts', '2');
    await waitCount(page, '#notification-table tbody tr', 4);
    const shown = await ids(page);

    // The exports hold what the list shows: the same filters, sent to the admin API.
    const har = await saved(page, '#export-har');
    expect(har.name).toMatch(/^reportbo-notifications-20260427T105500Z\.har$/);
    const log = JSON.parse(har.text) as {
      log: { entries: Array<{ _notificationId: string; response: { status: number } }> };
    };
    const ajv = new Ajv2020({ allErrors: true, strict: true });
    ajv.validate(HAR_SCHEMA, log);
    expect(ajv.errors ?? []).toEqual([]);
    expect([...new Set(log.log.entries.map((e) => e._notificationId))].sort()).toEqual([...shown].sort());
    expect(log.log.entries).toHaveLength(8); // two attempts each
    expect(new Set(log.log.entries.map((e) => e.response.status))).toEqual(new Set([500]));
    const ndjson = await saved(page, '#export-ndjson');
    expect(ndjson.name).toMatch(/\.ndjson$/);
    const lines = ndjson.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { id: string; attempts: unknown[] });
    expect(lines.map((l) => l.id).sort()).toEqual([...shown].sort());
    expect(lines.every((l) => l.attempts.length === 2)).toBe(true);
    await waitText(page, '#status', /^Exported reportbo-notifications-.*\.ndjson$/);
  });

  it('pages a search of more matches than a page holds: the newest 100 first, then the older ones', async () => {
    const good = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    for (let i = 0; i < 120; i++) await emu.event({ type: 'Issue' });
    const page = await open(emu.url);
    await waitText(page, '#notification-list h2', /^120 notifications$/);
    // Every body carries BookingStatus Issued: one search, 120 matches.
    await page.fill('#filter-text', 'issued');
    await waitText(page, '#notification-list h2', /^Newest 100 of 120 matches$/);
    expect((await ids(page))[0]).toBe('n-000120');
    await page.click('#page-older');
    await waitText(page, '#notification-list h2', /^20 older of 120 matches$/);
    expect(await ids(page)).toEqual(
      Array.from({ length: 20 }, (_, i) => `n-${String(20 - i).padStart(6, '0')}`),
    );
    await page.click('#page-newest');
    await waitText(page, '#notification-list h2', /^Newest 100 of 120 matches$/);
  });
});
