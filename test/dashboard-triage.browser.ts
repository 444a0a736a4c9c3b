/**
 * The Failures tab in real chromium (issue 41 §2, decision 0202): failing deliveries grouped by
 * credential and cause, a new failure counted in its group live, and "Retry these N" sending exactly
 * that group to the real receiver, after which the group leaves the page by itself. axe-core finds
 * nothing serious or critical on it.
 */
import { describe, expect, it } from 'vitest';
import { PAGE_LIMIT } from '../src/admin/contract/fields.js';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { CLOCK_START } from './helpers/clock.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { addNotifications } from './helpers/many-notifications.js';
import { freePort } from './helpers/ports.js';
import { behave, receiver } from './helpers/receiver.js';

const { open } = useChromium();

describe.skipIf(!haveChromium)('the Failures tab in chromium', () => {
  it('groups failures by credential and cause, follows new ones live and retries one group', async () => {
    const a = await receiver({ defaultBehaviour: behave.status(200) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url, filters: { pcc: ['AAA'] } });
    const closed = `http://127.0.0.1:${await freePort()}/hook`;
    await emu.credential({ id: 'b', apiKey: 'k-b', url: closed, filters: { pcc: ['BBB'] } });
    const issue = async (pcc: string) =>
      (await emu.event({ type: 'Issue', overrides: { Reservation: { PCCBook: pcc, PCCIssue: pcc } } }))
        .notifications[0]!.id;
    a.enqueue(
      behave.status(503, '{"error":"busy","retryIn":120}'),
      behave.status(503, '{"error":"busy","retryIn":30}'),
    );
    const busy = [await issue('AAA'), await issue('AAA')];
    await issue('BBB');
    await emu.settle();

    const page = await open(emu.url, '#triage');
    const busyRow = '#triage-table tr[data-key="a|HTTP 503 {\\"error\\":\\"busy\\",\\"retryIn\\":#}"]';
    const refusedRow = '#triage-table tr[data-key="b|connect_refused"]';
    await waitText(page, `${busyRow} td:nth-child(3)`, /^2 \(0 exhausted, 2 pending\)$/);
    await waitText(page, `${refusedRow} td:nth-child(3)`, /^1 \(0 exhausted, 1 pending\)$/);
    await waitText(page, '#tab-triage .count', /^3$/);
    expect(await axeFindings(page), 'failures tab').toEqual([]);

    // A new failure joins its group without a reload.
    await issue('BBB');
    await emu.settle();
    await waitText(page, `${refusedRow} td:nth-child(3)`, /^2 \(0 exhausted, 2 pending\)$/);

    // Retry the busy group: exactly its two notifications reach the receiver, and the group goes.
    const before = a.requests.length;
    await page.locator(`${busyRow} button`).click();
    await waitText(page, '#status', /^Group a\|HTTP 503 .*: 2 retried now\.$/);
    await expect.poll(() => page.locator(busyRow).count()).toBe(0);
    await emu.settle();
    const sent = a.requests
      .slice(before)
      .map((q) => JSON.parse(q.body).Reservation.BookingNumber)
      .sort();
    const expected = await Promise.all(busy.map(async (id) => (await emu.notification(id)).bookingNumber));
    expect(sent).toEqual(expected.sort());
    await waitText(page, '#tab-triage .count', /^2$/);
  });

  it(`says when it shows only the ${PAGE_LIMIT} largest groups (decision 0236)`, async () => {
    const emu = await deliveryEmulator();
    // Every third record exhausted, with an answer no normalising makes alike: one group each.
    const letters = (i: number) => [...i.toString(7)].map((d) => 'stuvwxy'[Number(d)]).join('');
    addNotifications(emu.server.emulator, 3 * (PAGE_LIMIT + 20), {
      startMs: Date.parse(CLOCK_START),
      answer: (i) => `refused ${letters(i)}`,
    });
    const page = await open(emu.url, '#triage');
    await waitText(
      page,
      '#triage-more',
      new RegExp(`^The ${PAGE_LIMIT} largest of ${PAGE_LIMIT + 20} groups\\.$`),
    );
    expect(await page.locator('#triage-table tbody tr').count()).toBe(PAGE_LIMIT);
  });
});
