/**
 * The notifications list kept from the change stream, in real chromium (issue 41 §3, §5): after the
 * first read, a new notification, a Void and a resend's cancel reach the page by the stream alone
 * (no list is read again: the requests the page makes are recorded); the page reaches the older
 * pages, the oldest one, the newer ones and the page at a time in one click each. An attempt in
 * flight shows from its start (a receiver holds its answer until the page shows it), and the
 * notifications the retention setting drops leave the page.
 */
import type { Socket } from 'node:net';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitCount, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { OK_200, rawReceiver } from './helpers/raw-receiver.js';
import { behave, receiver } from './helpers/receiver.js';

const { newPage, open, pageErrors } = useChromium();
const PER_HOUR = 130;
const nid = (k: number) => `n-${String(k).padStart(6, '0')}`;

/** The ids of the rows shown, top to bottom. */
const ids = (page: Page) =>
  page
    .locator('#notification-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));

describe.skipIf(!haveChromium)('the list kept from the stream, in chromium', () => {
  it('adds, voids and cancels from the stream without reading a list again, and pages to any end or time', async () => {
    const good = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: good.url });
    // Three emulator hours of 130 notifications each: 10:00, 11:00 and 12:00.
    for (let hour = 0; hour < 3; hour++) {
      if (hour > 0) await emu.advance({ by: 'PT1H' });
      for (let i = 0; i < PER_HOUR; i++) await emu.event({ type: 'Issue' });
    }
    await emu.settle();
    const page = await open(emu.url);
    await waitText(page, '#notification-list h2', /^Newest 300 of 390 notifications$/);
    await waitText(page, '#tab-notifications .count', /^390$/);

    // From here on, every admin call the page makes is recorded.
    const reads: string[] = [];
    page.on('request', (r) => {
      const path = new URL(r.url()).pathname;
      if (path.startsWith('/__admin/')) reads.push(`${r.method()} ${path}${new URL(r.url()).search}`);
    });
    const failing = await receiver({ defaultBehaviour: behave.status(503) });
    await emu.credential({ id: 'bad', apiKey: 'k', url: failing.url });
    const issued = await emu.event({ type: 'Issue' }); // one to main, one to bad (which fails)
    const toBad = issued.notifications.find((n) => n.credentialId === 'bad')!.id;
    await page.waitForSelector(`#notification-table tr[data-id="${toBad}"]`);
    await waitText(page, '#notification-list h2', /^Newest 300 of 392 notifications$/);
    const bookingId = String(issued.reservations[0]!.bookingId);
    const offered = () => page.locator(`#trigger-booking option[value="${bookingId}"]`).count();
    await expect.poll(offered, { timeout: WAIT_DEADLINE_MS }).toBe(1);
    await emu.settle();

    // A Void: the booking leaves the Void/Exchange choices at once (they follow the stream's event).
    await emu.event({ type: 'Void', bookingId: Number(bookingId) });
    await expect.poll(offered, { timeout: WAIT_DEADLINE_MS }).toBe(0);
    await emu.settle();

    // A resend of the pending notification to bad cancels it: its row says so (notification_changed).
    const resent = await emu.admin<{ original: { becomes: string } }>(
      'POST',
      `/notifications/${toBad}/resend`,
      {},
    );
    expect(resent.body.original.becomes).toBe('cancelled');
    await waitText(page, `#notification-table tr[data-id="${toBad}"] td:nth-child(5)`, /^cancelled/);
    const lists = reads.filter((r) => /^GET \/__admin\/notifications(\?|$)/.test(r));
    expect(lists, 'notification lists read again after the first read').toEqual([]);

    // Paging: older than the newest 300, the oldest, newer back to the newest, and a time.
    await waitText(page, '#notification-list h2', /^Newest 300 of 395 notifications$/);
    await page.click('#page-older');
    await waitText(page, '#notification-list h2', /^95 older of 395 notifications$/);
    expect((await ids(page)).at(-1)).toBe(nid(1));
    await page.click('#page-newest');
    await waitText(page, '#notification-list h2', /^Newest 300 of 395 notifications$/);
    await page.click('#page-oldest');
    await waitText(page, '#notification-list h2', /^Oldest 300 of 395 notifications$/);
    expect((await ids(page))[0]).toBe(nid(300));
    await page.click('#page-newer');
    await waitText(page, '#notification-list h2', /^Newest 300 of 395 notifications$/);
    expect((await ids(page))[0]).toBe(nid(395));
    // Show without a time: the browser's own message on the field, and the page stays where it is.
    await page.click('#page-jump');
    expect(await page.evaluate('document.getElementById("page-time").validationMessage')).not.toBe('');
    expect(await page.locator('#notification-list h2').textContent()).toBe('Newest 300 of 395 notifications');
    await page.fill('#page-time', '2026-04-27T11:00:00');
    await page.click('#page-jump');
    await waitText(
      page,
      '#notification-list h2',
      /^130 created before 2026-04-27 11:00, of 395 notifications$/,
    );
    expect((await ids(page))[0]).toBe(nid(PER_HOUR));
    // A page of older notifications still follows the stream: a new one counts, the page stays.
    await emu.event({ type: 'Issue' });
    await waitText(
      page,
      '#notification-list h2',
      /^130 created before 2026-04-27 11:00, of 397 notifications$/,
    );
    // Seconds after the last event: the reservations were never read again (the events carry them).
    expect(reads.filter((r) => r.startsWith('GET /__admin/reservations'))).toEqual([]);
  });

  it('shows an attempt in flight from its start, in its row and its detail, until the answer comes', async () => {
    // The receiver holds each request until the test answers it: the page must show the attempt
    // while it is held, from the stream alone (no list read, no detail read again).
    const held: Array<(answer: string) => void> = [];
    let arrived = () => {};
    const receiver = await rawReceiver({
      answer(socket: Socket) {
        held.push((answer) => socket.write(answer));
        arrived();
      },
    });
    const arrival = () =>
      new Promise<void>((resolve) => {
        arrived = resolve;
      });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: receiver.url });
    const page = await open(emu.url);
    const first = arrival();
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await first;
    const stateCell = `#notification-table tr[data-id="${id}"] td:nth-child(5)`;
    await waitText(page, stateCell, /^pending sending…$/);
    await page.click(`#notification-table tr[data-id="${id}"] a.row-link`);
    await waitText(
      page,
      '#attempt-in-flight',
      /^Attempt 1\/5 \(first attempt\) sent at 2026-04-27 10:00:00 \(wall .+\): waiting for the receiver's answer…$/,
    );
    held.shift()!('HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n');
    await waitText(page, stateCell, /^pending$/);
    await page.waitForSelector('#attempt-in-flight', { state: 'detached' });

    // A redelivery batch: its attempt shows as it starts, with the batch named.
    const second = arrival();
    const moved = emu.advance({ to: 'next-batch' });
    await second;
    await waitText(page, stateCell, /^pending sending…$/);
    await waitText(
      page,
      '#attempt-in-flight',
      /^Attempt 2\/5 \(batch 10:55:00\) sent at 2026-04-27 10:55:00 \(wall .+\): waiting for the receiver's answer…$/,
    );
    held.shift()!(OK_200);
    await moved;
    await waitText(page, stateCell, /^delivered$/);
    await page.waitForSelector('#attempt-in-flight', { state: 'detached' });
    expect(receiver.requests).toHaveLength(2);
  });

  it('takes the notifications the retention setting drops off the page, its count and an open detail', async () => {
    const good = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42, notificationRetention: 3 });
    await emu.credential({ id: 'main', apiKey: 'k', url: good.url });
    for (let i = 0; i < 3; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    const page = await open(emu.url, `#notifications/${nid(1)}`);
    await waitText(page, '#detail-title', new RegExp(nid(1)));
    expect(await ids(page)).toEqual([nid(3), nid(2), nid(1)]);
    const reads: string[] = [];
    page.on('request', (r) => reads.push(new URL(r.url()).pathname));
    for (let i = 0; i < 2; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    await expect.poll(() => ids(page), { timeout: WAIT_DEADLINE_MS }).toEqual([nid(5), nid(4), nid(3)]);
    await waitText(page, '#tab-notifications .count', /^3$/);
    await waitText(page, '#notification-list h2', /^3 notifications$/);
    await waitText(
      page,
      '#detail',
      new RegExp(`^${nid(1)} is not in the emulator: never made, or dropped since`),
    );
    expect(reads.filter((r) => r === '/__admin/notifications')).toEqual([]);
  });

  it("shows a clock move's progress from the stream, answers input meanwhile, then says where it moved", async () => {
    const r = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k', url: r.url });
    for (let i = 0; i < 3; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    // In the batch, two attempts end at once and the third hangs until the receiver goes.
    r.enqueue(behave.status(503), behave.status(503), behave.hang());
    const page = await open(emu.url);
    await page.waitForSelector('#advance-batch:not([disabled])');
    await page.click('#advance-batch');
    await waitText(
      page,
      '#status',
      /^Moving the clock to the next batch… 0 batches run, 2 attempts ended so far$/,
    );
    expect(await page.locator('#advance-batch').isDisabled()).toBe(true);
    // The page is not frozen: it takes a filter typed meanwhile.
    await page.fill('#filter-booking', 'ZZZ');
    await waitText(page, '#notification-list .empty', /No notification matches these filters/);
    await page.fill('#filter-booking', '');
    await r.close(); // the hung attempt ends (the connection closed), and with it the batch
    await waitText(page, '#status', /^Clock moved to 2026-04-27 10:55:00; 1 batch run$/);
    await page.waitForSelector('#advance-batch:not([disabled])');
  });

  it("keeps a form's refusal with its form: leaving the tab clears it from the status line", async () => {
    const emu = await deliveryEmulator({ allowHttp: false, seed: 42 });
    const page = await open(emu.url, '#setup');
    await page.waitForSelector('#credential-form');
    await page.fill('#credential-id', 'main');
    await page.fill('#credential-apiKey', 'k');
    await page.fill('#credential-url', 'http://127.0.0.1:9/hook'); // plain http is refused here
    await page.click('#credential-submit');
    const refusal = await waitText(page, '#credential-error', /./);
    await waitText(page, '#status.error', /./);
    await page.click('#tab-notifications');
    await expect.poll(() => page.locator('#status').textContent(), { timeout: WAIT_DEADLINE_MS }).toBe('');
    await page.click('#tab-setup');
    // Back on its tab, the refusal is still at its form (the field marked), not on the status line.
    expect(await waitText(page, '#credential-error', /./)).toBe(refusal);
    expect(await page.locator('#credential-url').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#status').textContent()).toBe('');
    // Chromium logged the refused call (400): that was the point.
    await expect.poll(() => pageErrors.length, { timeout: WAIT_DEADLINE_MS }).toBe(1);
    expect(pageErrors.splice(0)[0]).toMatch(/status of 400/);
  });

  it('counts once the notifications the stream brings while the first page is read', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    await emu.event({ type: 'Issue' });
    // The first page's answer is held after the emulator made it: the stream meanwhile brings newer ones.
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let answered = () => {};
    const made = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const page = await newPage();
    await page.route('**/__admin/notifications', async (route) => {
      const response = await route.fetch();
      answered();
      await held;
      await route.fulfill({ response }).catch(() => {});
    });
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    await made;
    for (let i = 0; i < 30; i++) await emu.event({ type: 'Issue' });
    await waitCount(page, '#notification-table tbody tr', 30); // from the stream (the page's total: 1)
    release();
    await waitText(page, '#tab-notifications .count', /^31$/);
    await waitText(page, '#notification-list h2', /^31 notifications$/);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
  });
});
