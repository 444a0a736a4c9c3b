/**
 * Resending from the dashboard, in real chromium (issue 28 §3, §4): "Resend to <credential> only"
 * sends one new notification and opens it; the page names the booking's current status and where
 * "Redeliver" would send;
 * "Edit and send" shows the API's refusal on the field and sends the edited body once it is fixed.
 */
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { type DeliveryHarness, deliveryEmulator, issuedToTwoReceivers } from './helpers/delivery.js';
import { behave, type Receiver, receiver } from './helpers/receiver.js';

const { open, pageErrors } = useChromium();

/** The requests `r` got for BookingNumber `bookingNumber` that it answered 200. */
const acknowledgedCopies = (r: Receiver, bookingNumber: string) =>
  r.requests.filter(
    (q) =>
      q.behaviour.kind === 'status' &&
      q.behaviour.status === 200 &&
      JSON.parse(q.body).Reservation.BookingNumber === bookingNumber,
  ).length;

/** The next two redelivery batches, each awaited with its attempts. */
async function twoBatches(emu: DeliveryHarness): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await emu.advance({ to: 'next-batch' });
    await emu.settle();
  }
}

/**
 * Credential `a` posting to a receiver that answers 503 (until told otherwise), and `issue()`, which
 * emits an Issue and answers its notification's id, BookingID and BookingNumber.
 */
async function failingReceiverA() {
  const a = await receiver({ defaultBehaviour: behave.status(503) });
  const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
  await emu.credential({ id: 'a', apiKey: 'k-a', url: a.url });
  const issue = async () => {
    const r = await emu.event({ type: 'Issue' });
    return {
      id: r.notifications[0]!.id,
      bookingId: r.reservations[0]!.bookingId,
      bn: r.reservations[0]!.bookingNumber,
    };
  };
  return { a, emu, issue };
}

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

    // Before sending, the page says what happens to the original and warns of the Void.
    await page.click('#resend');
    await waitText(
      page,
      '#resend-plan-text',
      new RegExp(
        `^Before sending: ${original} would be sent to a; the original ${original} stays delivered\\.$`,
      ),
    );
    await waitText(page, '#resend-warnings', /is Voided now; this resend sends it as Issued/);
    expect(await page.evaluate('document.activeElement?.id')).toBe('resend-confirm');
    expect(await page.locator('#resend-confirm').innerText()).toBe('Send anyway');
    expect(a.requests).toHaveLength(2); // nothing sent by the plan
    await page.click('#resend-confirm');
    await waitText(
      page,
      '#status',
      new RegExp(`^${original} sent again as n-000005 → a; the original ${original} stays delivered\\.$`),
    );
    await page.waitForSelector('#detail[data-id="n-000005"]');
    // Focus goes to what was created.
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('detail-title');
    await waitText(page, '#detail .warnings', /is Voided now/); // the warning stays on the resend
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
    await page.waitForSelector('#edit-error', { state: 'detached' }); // cleared once it no longer applies
    await page.click('#edit-send-button');
    await waitText(
      page,
      '#resend-plan-text',
      /^Before sending: the edited body of n-000005 would be sent to b; /,
    );
    await page.click('#resend-confirm');
    await page.waitForSelector('#detail[data-id="n-000006"]');
    await emu.settle();
    expect(b.requests).toHaveLength(3);
    expect(JSON.parse(gunzipSync(b.requests[2]!.rawBody).toString('utf8')).Pax[0].LastName).toBe('Edited');
  });

  it('redelivers with the booking status at the click, whether or not the stream told the page of a Void yet', async () => {
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

    // Voided behind the page (another tab, a test, a CI job) and clicked at once: the form may still
    // show Issued (the stream's event not drawn yet); the redelivery asks the booking's status then.
    await emu.event({ type: 'Void', bookingId });
    await page.click('#redeliver');
    // Redelivered as Voided (the status now), not un-voided by a stale default; the API's message shown.
    await waitText(page, '#status', /^Redelivery of \w+: n-000003 → a \(/);
    const reservation = await emu.admin<{ status: string }>('GET', `/reservations/${bookingId}`);
    expect(reservation.body.status).toBe('Voided');
    expect((await emu.notification('n-000003')).bookingStatus).toBe('Voided');
    // The form follows the Void from the stream (no list read).
    await expect
      .poll(() => page.locator('#redeliver-status').inputValue(), { timeout: WAIT_DEADLINE_MS })
      .toBe('Voided');
  });

  it('resend, retry now and redeliver on pending, delivered and exhausted notifications send exactly the copies the page announced, nothing more after two batches', async () => {
    const { a, emu, issue } = await failingReceiverA();
    const exhausted = await issue();
    await emu.settle();
    for (let i = 0; i < 4; i++) {
      await emu.advance({ to: 'next-batch' });
      await emu.settle();
    }
    const pending = await issue();
    const forRedeliver = await issue();
    const forRetry = await issue();
    await emu.settle();
    a.setDefault(behave.status(200));
    const delivered = await issue();
    await emu.settle();

    // Each view is loaded afresh, in turn, in one page.
    let page: Page | undefined;
    /** Resends `n` from its page, checking the plan's words first; answers the new notification's id. */
    const resendFromPage = async (id: string, fate: RegExp) => {
      page = await open(emu.url, `#notifications/${id}`, page);
      await page.waitForSelector(`#detail[data-id="${id}"]`);
      await page.click('#resend');
      await waitText(page, '#resend-plan-text', fate);
      await page.click('#resend-confirm');
      await waitText(page, '#status', new RegExp(`^${id} sent again as (n-\\d+) → a; `));
      return /sent again as (n-\d+)/.exec(await page.locator('#status').innerText())![1]!;
    };
    await resendFromPage(
      pending.id,
      new RegExp(`the original ${pending.id} \\(pending\\) stops being redelivered`),
    );
    await resendFromPage(exhausted.id, new RegExp(`the original ${exhausted.id} stays exhausted`));
    await resendFromPage(delivered.id, new RegExp(`the original ${delivered.id} stays delivered`));

    // Redeliver: the hint names the pending notification it takes the place of.
    page = await open(emu.url, `#notifications/${forRedeliver.id}`, page);
    await waitText(
      page,
      '#redeliver-hint',
      new RegExp(`; ${forRedeliver.id} \\(pending\\) then stops being redelivered`),
    );
    await page.click('#redeliver');
    await waitText(page, '#status', new RegExp(`${forRedeliver.id} stops being redelivered`));

    // Retry now: one attempt of the notification itself, no new notification.
    const retryPage = await open(emu.url, `#notifications/${forRetry.id}`, page);
    await retryPage.click('#retry-now');
    await waitText(retryPage, '#status', new RegExp(`^${forRetry.id}: attempt 2/5 → 200`));

    await emu.settle();
    const counts = () =>
      [pending, exhausted, delivered, forRedeliver, forRetry].map((x) => acknowledgedCopies(a, x.bn));
    expect(counts()).toEqual([1, 1, 2, 1, 1]);
    await twoBatches(emu);
    expect(counts()).toEqual([1, 1, 2, 1, 1]);
    expect(await emu.notification(pending.id)).toMatchObject({ state: 'cancelled', cancelReason: 'resent' });
    expect(await emu.notification(forRedeliver.id)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'resent',
    });
    // The pretty log's short permalink (#<id>) opens the same view, which names the cancel's reason.
    const short = await open(emu.url, `#${pending.id}`, retryPage);
    await short.waitForSelector(`#detail[data-id="${pending.id}"]`);
    await waitText(short, '#cancelled', /a resend took its place \(resent\)/);
  });

  it('resend, retry now and redeliver on notifications whose booking was Voided since: the page warns, and the receiver gets exactly the copies announced, nothing more after two batches', async () => {
    const { a, emu, issue } = await failingReceiverA();
    // Three Issued notifications left pending (their first attempt failed), then each booking Voided
    // (the Void delivered): each Issued original is now older news than the booking's status.
    const forResend = await issue();
    const forRetry = await issue();
    const forRedeliver = await issue();
    await emu.settle();
    a.setDefault(behave.status(200));
    for (const x of [forResend, forRetry, forRedeliver])
      await emu.event({ type: 'Void', bookingId: x.bookingId });
    await emu.settle();
    /** Copies of booking `bn` with BookingStatus `status` that the receiver acknowledged. */
    const copies = (bn: string, status: string) =>
      a.requests.filter(
        (q) =>
          q.behaviour.kind === 'status' &&
          q.behaviour.status === 200 &&
          JSON.parse(q.body).Reservation.BookingNumber === bn &&
          JSON.parse(q.body).Reservation.BookingStatus === status,
      ).length;
    const all = [forResend, forRetry, forRedeliver];
    const counts = () => all.map((x) => [copies(x.bn, 'Issued'), copies(x.bn, 'Voided')]);
    expect(counts()).toEqual([
      [0, 1],
      [0, 1],
      [0, 1],
    ]);

    // Resend: before sending, the page says the booking is Voided now and what becomes of the original.
    const page = await open(emu.url, `#notifications/${forResend.id}`);
    await page.waitForSelector(`#detail[data-id="${forResend.id}"]`);
    await page.click('#resend');
    await waitText(
      page,
      '#resend-plan-text',
      new RegExp(`would be sent to a; the original ${forResend.id} \\(pending\\) stops being redelivered`),
    );
    await waitText(page, '#resend-warnings', /is Voided now; this resend sends it as Issued/);
    expect(copies(forResend.bn, 'Issued')).toBe(0); // nothing sent by the plan
    await page.click('#resend-confirm');
    await waitText(page, '#status', new RegExp(`^${forResend.id} sent again as (n-\\d+) → a; `));
    const resent = /sent again as (n-\d+)/.exec(await page.locator('#status').innerText())![1]!;
    await page.waitForSelector(`#detail[data-id="${resent}"]`);
    await waitText(page, '#detail .warnings', /is Voided now/); // the warning kept on the resend

    // Retry now: one attempt of the notification itself, as it was created (Issued).
    await page.goto(`${emu.url}/__admin/ui#notifications/${forRetry.id}`);
    await page.waitForSelector(`#detail[data-id="${forRetry.id}"] #retry-now`);
    await page.click('#retry-now');
    await waitText(page, '#status', new RegExp(`^${forRetry.id}: attempt 2/5 → 200`));

    // Redeliver: the status offered is the booking's now (Voided); it takes the pending one's place.
    await page.goto(`${emu.url}/__admin/ui#notifications/${forRedeliver.id}`);
    await waitText(
      page,
      '#redeliver-hint',
      new RegExp(`\\(now Voided\\).*; ${forRedeliver.id} \\(pending\\) then stops`),
    );
    expect(await page.locator('#redeliver-status').inputValue()).toBe('Voided');
    await page.click('#redeliver');
    await waitText(page, '#status', new RegExp(`${forRedeliver.id} stops being redelivered`));

    await emu.settle();
    const announced = [
      [1, 1],
      [1, 1],
      [0, 2],
    ];
    expect(counts()).toEqual(announced);
    await twoBatches(emu);
    expect(counts()).toEqual(announced);
    expect(await emu.notification(forResend.id)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'resent',
    });
    expect(await emu.notification(forRetry.id)).toMatchObject({ state: 'delivered' });
    expect(await emu.notification(forRedeliver.id)).toMatchObject({
      state: 'cancelled',
      cancelReason: 'resent',
    });
  });
});
