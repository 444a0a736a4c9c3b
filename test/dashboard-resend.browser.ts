/**
 * Resending from the dashboard, in real chromium (issue 28 §3, §4): "Resend to <credential> only"
 * sends one new notification and opens it; the page names the booking's current status and where
 * "Redeliver" would send;
 * "Edit and send" shows the API's refusal on the field and sends the edited body once it is fixed.
 */
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator, issuedToTwoReceivers } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

const { open, pageErrors } = useChromium();

describe.skipIf(!haveChromium)('resending from the dashboard in chromium', () => {
  it('resends to one credential, says where a redelivery goes, and edits and sends', async () => {
    const { emu, a, b, issued } = await issuedToTwoReceivers();
    await emu.event({ type: 'Void', bookingId: issued.reservations[0]!.bookingId });
    await emu.settle();
    const original = issued.notifications.find((n) => n.credentialId === 'a')!.id;
    const page = await open(emu.url, `#notifications/${original}`);
    await page.waitForSelector(`#detail[data-id="${original}"]`);

    // The booking is Voided now: the page says so and where a redelivery would go.
    await waitText(
      page,
      '#redeliver-hint',
      /of booking \w+ \(now Voided\) to every credential it routes to \(a, b\)/,
    );

    await page.click('#resend');
    await waitText(page, '#status', new RegExp(`^${original} sent again as n-000005 → a$`));
    await page.waitForSelector('#detail[data-id="n-000005"]');
    expect(await page.evaluate('location.hash')).toBe('#notifications/n-000005');
    // The resend links to the one it came from, and that one back to it.
    await waitText(page, '#resent-from', new RegExp(`^Resends ${original}$`));
    await page.click('#resent-from a');
    await page.waitForSelector(`#detail[data-id="${original}"]`);
    await waitText(page, '#resent-as', /^Resent as n-000005$/);
    await page.click('#resent-as a');
    await page.waitForSelector('#detail[data-id="n-000005"]');
    await emu.settle();
    expect(a.requests).toHaveLength(3);
    expect(b.requests).toHaveLength(2);

    // Edit and send: a wrong type is refused on the field; fixed, it goes to the credential chosen.
    await page.click('#edit-send summary');
    const text = await page.locator('#edit-body').inputValue();
    const body = JSON.parse(text) as {
      Reservation: { BookingNumber: unknown };
      Pax: Array<{ LastName: string }>;
    };
    const bookingNumber = body.Reservation.BookingNumber;
    body.Reservation.BookingNumber = 42;
    await page.fill('#edit-body', JSON.stringify(body, null, 2));
    await page.uncheck('#edit-to-a');
    await page.check('#edit-to-b');
    await page.click('#edit-send-button');
    await waitText(page, '#edit-error', /^Reservation\.BookingNumber: /);
    expect(await page.locator('#edit-body').getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => pageErrors.length).toBe(1); // chromium logs the 400
    pageErrors.splice(0);
    body.Reservation.BookingNumber = bookingNumber;
    body.Pax[0]!.LastName = 'Edited';
    await page.fill('#edit-body', JSON.stringify(body));
    expect(await page.locator('#edit-error').count()).toBe(0); // cleared once it no longer applies
    await page.click('#edit-send-button');
    await page.waitForSelector('#detail[data-id="n-000006"]');
    await emu.settle();
    expect(b.requests).toHaveLength(3);
    expect(JSON.parse(gunzipSync(b.requests[2]!.rawBody).toString('utf8')).Pax[0].LastName).toBe('Edited');
  });

  it('redelivers with the booking status at the click, even when the list the selector shows has not caught up with a Void', async () => {
    const a = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url });
    const issued = await emu.event({ type: 'Issue' });
    await emu.settle();
    const id = issued.notifications[0]!.id;
    const bookingId = issued.reservations[0]!.bookingId;
    const page = await open(emu.url, `#notifications/${id}`);
    await waitText(page, '#redeliver-hint', /\(now Issued\)/);
    expect(await page.locator('#redeliver-status').inputValue()).toBe('Issued');

    // The page's next read of the reservations list is held back: the form still shows Issued when
    // the booking is voided behind it (another tab, a test, a CI job).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/__admin/reservations', async (route) => {
      await held;
      // The page may be gone by then (the test ended): nothing to continue.
      await route.continue().catch(() => {});
    });
    await emu.event({ type: 'Void', bookingId });
    await emu.settle();
    expect(await page.locator('#redeliver-status').inputValue()).toBe('Issued');
    await page.click('#redeliver');
    // Redelivered as Voided (the status now), not un-voided by the stale default; the API's message shown.
    await waitText(page, '#status', /^Redelivery of \w+: n-000003 → a \(/);
    const reservation = await emu.admin<{ status: string }>('GET', `/reservations/${bookingId}`);
    expect(reservation.body.status).toBe('Voided');
    expect((await emu.notification('n-000003')).bookingStatus).toBe('Voided');
    release();
  });
});
