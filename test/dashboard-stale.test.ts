/**
 * Banners, status lines and form errors that no longer apply go (issue 28 §5), in real chromium:
 * each case makes the message's cause happen for real, takes the cause away, and checks the message
 * went, while a message whose cause is still there (or that names what the reader now sees) stays.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, POLL_MS, useChromium, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

const { open, pageErrors } = useChromium();

/** Chromium logs each refused or failed call as a console error: take the `count` expected ones. */
async function logged(count: number, pattern: RegExp): Promise<void> {
  await expect.poll(() => pageErrors.length).toBeGreaterThanOrEqual(count);
  for (const line of pageErrors.splice(0)) expect(line).toMatch(pattern);
}

/** The status line's text once it stops matching `pattern` (it was cleared or says something else). */
async function statusLeaves(page: Page, pattern: RegExp): Promise<string> {
  await page.waitForFunction(
    ([source, flags]) =>
      !new RegExp(source!, flags).test(
        (
          globalThis as unknown as { document: { getElementById(id: string): { textContent: string } } }
        ).document.getElementById('status').textContent,
      ),
    [pattern.source, pattern.flags] as const,
    { timeout: WAIT_DEADLINE_MS, polling: POLL_MS },
  );
  return (await page.locator('#status').textContent()) ?? '';
}

describe.skipIf(!haveChromium)('messages that no longer apply go, in chromium', () => {
  it("a refused search's error goes once a search is answered", async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    const page = await open(emu.url);
    await page.fill('#filter-text', 'x'.repeat(501)); // the admin API takes at most 500 characters
    await page.keyboard.press('Enter');
    await waitText(page, '#status.error', /500/);
    await logged(1, /status of 400/);
    await page.fill('#filter-text', 'Lubowitz');
    await page.keyboard.press('Enter');
    expect(await statusLeaves(page, /500/)).toBe('');
    expect(await page.locator('#status').getAttribute('class')).toBe('status');
  });

  it('an error said while the emulator was unreachable goes once the stream is back', async () => {
    const first = await deliveryEmulator({ allowHttp: true });
    const port = Number(new URL(first.url).port);
    const page = await open(first.url);
    // The clock read (the button is enabled once it is known to be manual) before the emulator goes.
    await page.waitForSelector('#advance-batch:not([disabled])');
    await first.server.close();
    await waitText(page, '#live', /^reconnecting/);
    await page.click('#advance-batch');
    await waitText(page, '#status.error', /fetch/i);
    // The same emulator is back (another process, as after a restart, on the same port).
    const again = await deliveryEmulator({ allowHttp: true, port });
    expect(again.url).toBe(first.url);
    await page.waitForSelector('#live.on', { timeout: WAIT_DEADLINE_MS });
    expect(await statusLeaves(page, /fetch/i)).toBe('');
    // Chromium logged the calls and stream connections that failed while the emulator was away
    // (refused, reset or cut off: which depends on the moment).
    for (const line of pageErrors.splice(0)) expect(line).toMatch(/^Failed to load resource: net::ERR_/);
  });

  it("a set-up form's refusal of a field goes when a choice hides that field; another field's does not", async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    const page = await open(emu.url, '#setup');
    await page.waitForSelector('#fault-form');
    await page.fill('#fault-status', '99'); // not an HTTP status: refused naming "status"
    await page.click('#fault-submit');
    await page.waitForSelector('#fault-status[aria-invalid="true"]');
    await waitText(page, '#fault-error', /status/);
    await logged(1, /status of 400/);
    // Another field changed: the refusal still applies to the status typed.
    await page.fill('#fault-count', '2');
    expect(await page.locator('#fault-error').count()).toBe(1);
    // A delay fault has no status: the refusal of the status no longer applies.
    await page.selectOption('#fault-kind', 'delay');
    await expect.poll(() => page.locator('#fault-error').count()).toBe(0);
    await page.selectOption('#fault-kind', 'status');
    await page.waitForSelector('#fault-status');
    expect(await page.locator('#fault-status').getAttribute('aria-invalid')).toBeNull();
  });

  it("a bulk retry's result goes, from the status line too, when the credential or the time changes", async () => {
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'bad', apiKey: 'k-bad', url: bad.url });
    await emu.credential({ id: 'other', apiKey: 'k-other', url: bad.url, filters: { pcc: ['NONE'] } });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const page = await open(emu.url, '#retry');
    await page.waitForSelector('#retry-credential');
    await page.selectOption('#retry-credential', 'bad');
    await page.fill('#retry-since', '2026-04-27 00:00');
    await page.click('#retry-count');
    await waitText(page, '#retry-run', /^Retry these 1$/);
    await page.click('#retry-run');
    await waitText(page, '#retry-result', /^Bulk retry of 1:/);
    await waitText(page, '#status', /^Bulk retry of 1:/);
    await page.selectOption('#retry-credential', 'other');
    await expect.poll(() => page.locator('#retry-result').count()).toBe(0);
    expect(await statusLeaves(page, /^Bulk retry/)).toBe('');
  });

  it("a notification's action result goes when another notification is opened; a resend's stays on the new one", async () => {
    const r = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k-main', url: r.url });
    const one = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    const two = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    const page = await open(emu.url, `#notifications/${one}`);
    await page.waitForSelector(`#detail[data-id="${one}"] #retry-now`);
    await page.click('#retry-now');
    await waitText(page, '#status', new RegExp(`^${one}: attempt 2/5 → 500`));
    await page.click(`#notification-table tr[data-id="${two}"] a.row-link`);
    await page.waitForSelector(`#detail[data-id="${two}"]`);
    expect(await statusLeaves(page, new RegExp(`^${one}:`))).toBe('');

    // A resend opens the new notification: what it says is about the one now shown, and stays.
    await page.click('#resend');
    await page.click('#resend-confirm'); // after the plan says what happens to the original
    const said = await waitText(page, '#status', new RegExp(`^${two} sent again as n-\\d+ → main; `));
    await page.waitForFunction(
      (id) =>
        (globalThis as unknown as { document: { querySelector(s: string): unknown } }).document.querySelector(
          `#detail:not([data-id="${id}"])`,
        ) !== null,
      two,
    );
    await new Promise((resolve) => setTimeout(resolve, 300)); // a few frames: a wrong clear would have run
    expect(await page.locator('#status').textContent()).toBe(said);
  });

  it("the conformance kit's refusal goes once the field it names is changed", async () => {
    const emu = await deliveryEmulator({ allowHttp: true });
    const page = await open(emu.url, '#verify');
    await page.fill('#verify-receiver', 'not a url');
    await page.click('#verify-run');
    await waitText(page, '#verify-error', /receiver|url/i);
    await logged(1, /status of 400/);
    await page.fill('#verify-receiver', 'http://127.0.0.1:9/reportbo');
    await expect.poll(() => page.locator('#verify-error').count()).toBe(0);
  });
});

describe.skipIf(!haveChromium)('edit and send, when a target goes', () => {
  it('no longer counts or sends to a credential deleted after it was ticked', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k-a', url: r.url });
    await emu.credential({ id: 'b', apiKey: 'k-b', url: r.url, filters: { pcc: ['NONE'] } });
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    const page = await open(emu.url, `#notifications/${id}`);
    await page.waitForSelector(`#detail[data-id="${id}"] #edit-send`);
    await page.click('#edit-send summary');
    await page.check('#edit-to-b');
    await waitText(page, '#edit-send-button', /to 2 credentials…$/);
    await emu.admin('DELETE', '/credentials/b');
    await expect.poll(() => page.locator('#edit-to-b').count()).toBe(0);
    // What the button counts and what it sends are the credentials still there.
    await waitText(page, '#edit-send-button', /to 1 credential…$/);
    const sentBefore = r.requests.length;
    await page.click('#edit-send-button');
    await waitText(page, '#resend-plan-text', / would be sent to a; /);
    await page.click('#resend-confirm');
    await waitText(page, '#status', /sent again as n-\d+ → a; /);
    expect(await page.locator('#edit-error').count()).toBe(0);
    await emu.settle();
    expect(r.requests.length).toBe(sentBefore + 1);
  });
});

describe.skipIf(!haveChromium)('a link to what the emulator does not have', () => {
  it('says the notification or the call is unknown instead of "Loading…" for ever', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'a', apiKey: 'k-a', url: r.url });
    await emu.event({ type: 'Issue' }); // n-000001 exists; n-000099 does not
    await emu.settle();
    const page = await open(emu.url, '#notifications/n-000099');
    await waitText(page, '#detail', /n-000099 is not in the emulator/);
    await logged(1, /status of 404/);
    // The one that exists opens as usual.
    await page.click('#notification-table tr[data-id="n-000001"] a.row-link');
    await page.waitForSelector('#detail[data-id="n-000001"] #attempts');

    await page.goto(`${emu.url}/__admin/ui#journal/r-000099`);
    await waitText(page, '#journal-detail', /r-000099 is not in the journal/);
    await logged(1, /status of 404/);
  });
});
