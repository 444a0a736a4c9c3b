/**
 * The dashboard in a real browser: Debian's chromium driven by playwright-core (never a browser
 * download). Events come both from the page's buttons and from the admin API, and the test reads
 * what the page shows. Without /usr/bin/chromium the tests are skipped with how to install it.
 * `UPDATE_SCREENSHOT=1` rewrites docs/dashboard.png (docs/dashboard.md's picture) from the last test.
 */
import { writeFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createServerCertificate } from '../src/certs/index.js';
import {
  type BrowserGlobals,
  haveChromium,
  POLL_MS,
  useChromium,
  waitCount,
  waitText,
} from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';
import { testCa } from './helpers/tls.js';
import { verifyTestReceiver } from './helpers/verify-receivers.js';

const SCREENSHOT = new URL('../docs/dashboard.png', import.meta.url).pathname;
/** Script errors and console errors of the pages a test opened: each test ends without any. */
const { newPage, pageErrors } = useChromium();

/** Opens the dashboard (through the `/` redirect) and waits until its live stream is connected. */
async function open(emu: DeliveryHarness): Promise<Page> {
  const page = await newPage();
  await page.goto(`${emu.url}/`);
  expect(new URL(page.url()).pathname).toBe('/__admin/ui');
  await page.waitForSelector('#live.on');
  // Set once: were the page reloaded, this would be gone.
  await page.evaluate(() => {
    (globalThis as unknown as { loadedOnce: boolean }).loadedOnce = true;
  });
  return page;
}

const notLoadedAgain = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { loadedOnce?: boolean }).loadedOnce === true);

const row = (page: Page, id: string) => page.locator(`#notification-table tr[data-id="${id}"]`);
const cell = (page: Page, id: string, n: number) => row(page, id).locator(`td:nth-child(${n})`);

describe.skipIf(!haveChromium)('the dashboard in chromium', () => {
  it('shows a notification triggered through the admin API without a reload, with its attempts, headers and decoded body', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    const page = await open(emu);
    await emu.credential({ id: 'main', apiKey: 'k-main', url: r.url });
    const result = await emu.event({ type: 'Issue' });
    const id = result.notifications[0]!.id;
    const bookingNumber = result.reservations[0]!.bookingNumber;

    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(5)`, /delivered/);
    expect(await cell(page, id, 2).textContent()).toBe(bookingNumber);
    expect(await cell(page, id, 3).textContent()).toBe('Issued');
    expect(await cell(page, id, 4).textContent()).toBe('main');
    expect(await cell(page, id, 6).textContent()).toBe('1/5');
    expect(await cell(page, id, 7).textContent()).toBe('200');
    expect(await cell(page, id, 9).textContent()).toBe(`20260427_100000Z-${bookingNumber}.json`);
    expect(await notLoadedAgain(page)).toBe(true);

    await row(page, id).click();
    await page.waitForSelector(`#detail[data-id="${id}"] #attempts li`);
    const attempts = page.locator('#attempts li');
    expect(await attempts.count()).toBe(1);
    expect(await attempts.first().textContent()).toMatch(/#1 200 in \d+ ms · first attempt/);
    expect(await attempts.first().textContent()).toContain('emulator 2026-04-27 10:00:00');
    expect(await page.locator('#detail .headers').textContent()).toContain('Bearer k-main');
    const body = (await page.locator('#body').textContent()) ?? '';
    expect(body).toContain(`"BookingNumber": "${bookingNumber}"`);
    expect(body).toContain('"BookingStatus": "Issued"');
    // Collapsible: the body's top-level objects are <details> the reader can close.
    await page.locator('#body > details > details > summary').first().click();
    expect(await page.locator('#body > details > details').first().getAttribute('open')).toBeNull();
  });

  it('triggers an Issue, a Void and an Exchange from the page, each reaching the receiver', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const page = await open(emu);
    await page.click('#trigger-issue');
    await page.waitForSelector('#notification-table tr[data-id="n-000001"]');
    await waitText(page, '#status', /^Issue: \w{6} \(Issued\), routed to 1 credential$/);
    const issued = (await emu.admin<{ reservations: Array<{ bookingId: number }> }>('GET', '/reservations'))
      .body.reservations[0]!;
    await page.waitForSelector(`#trigger-booking option[value="${issued.bookingId}"]`, { state: 'attached' });
    await page.click('#trigger-void');
    await waitText(page, '#notification-table tr[data-id="n-000002"] td:nth-child(3)', /^Voided$/);
    // A Voided booking is no longer offered; a new Issue is, and its Exchange notifies both bookings.
    await page.click('#trigger-issue');
    await page.waitForSelector('#notification-table tr[data-id="n-000003"]');
    await page.waitForFunction(
      (voided) =>
        (globalThis as unknown as BrowserGlobals).document.querySelector(
          `#trigger-booking option[value="${voided}"]`,
        ) === null &&
        (globalThis as unknown as BrowserGlobals).document.querySelectorAll('#trigger-booking option')
          .length === 1,
      issued.bookingId,
      { polling: POLL_MS },
    );
    await page.click('#trigger-exchange');
    await waitText(
      page,
      '#notification-table tr[data-id="n-000005"] td:nth-child(3)',
      /^(Exchanged|Issued-Exch)$/,
    );
    const statuses = [
      await cell(page, 'n-000004', 3).textContent(),
      await cell(page, 'n-000005', 3).textContent(),
    ];
    expect(statuses.sort()).toEqual(['Exchanged', 'Issued-Exch']);
    await emu.settle();
    expect(r.requests).toHaveLength(5);
    expect(await notLoadedAgain(page)).toBe(true);
  });

  it('creates a new notification with a manual redelivery from the page, with the status chosen', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const page = await open(emu);
    const { notifications } = await emu.event({ type: 'Issue' });
    await row(page, notifications[0]!.id).click();
    await page.waitForSelector('#detail #redeliver-status option[value="Voided"]', { state: 'attached' });
    await page.selectOption('#redeliver-status', 'Voided');
    // A live update redraws the page meanwhile; the chosen status must survive it.
    await emu.event({ type: 'Issue' });
    await page.waitForSelector('#notification-table tr[data-id="n-000002"]');
    expect(await page.locator('#redeliver-status').inputValue()).toBe('Voided');
    await page.click('#redeliver');
    await waitText(page, '#notification-table tr[data-id="n-000003"] td:nth-child(3)', /^Voided$/);
    await waitText(page, '#status', /^Redelivery of \w{6}: n-000003/);
    const listed = await emu.admin<{
      notifications: Array<{ id: string; bookingStatus: string; bookingNumber: string }>;
    }>('GET', '/notifications');
    expect(listed.body.notifications.map((n) => [n.id, n.bookingStatus])).toEqual([
      ['n-000001', 'Issued'],
      ['n-000002', 'Issued'],
      ['n-000003', 'Voided'],
    ]);
    expect(listed.body.notifications[2]!.bookingNumber).toBe(listed.body.notifications[0]!.bookingNumber);
  });

  it('runs the redelivery batch with the clock button, and the pending notification turns delivered', async () => {
    const r = await receiver();
    r.enqueue(behave.status(503));
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const page = await open(emu);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(7)`, /^503$/);
    expect(await cell(page, id, 5).textContent()).toBe('pending');
    expect(await cell(page, id, 8).textContent()).toBe('10:55:00');
    expect(await page.locator('#clock-now').textContent()).toBe('2026-04-27 10:00:00 UTC');

    await page.click('#advance-batch');
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(5)`, /^delivered$/);
    expect(await cell(page, id, 6).textContent()).toBe('2/5');
    await waitText(page, '#clock-now', /^2026-04-27 10:55:00 UTC$/);
    expect(await page.locator('#clock-next').textContent()).toBe('2026-04-27 11:55:00');
    const n = await emu.notification(id);
    expect(n.attempts.map((a) => [a.trigger, a.batchAt])).toEqual([
      ['first', undefined],
      ['batch', '2026-04-27T10:55:00.000Z'],
    ]);

    await page.click('#advance-hour');
    await waitText(page, '#clock-now', /^2026-04-27 11:55:00 UTC$/);
  });

  it('records an attempt with retry now, shown on the timeline as such', async () => {
    const r = await receiver();
    r.enqueue(behave.status(500));
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const page = await open(emu);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    await row(page, id).click();
    await page.waitForSelector('#retry-now:not([disabled])');
    await page.click('#retry-now');
    await page.waitForSelector('#attempts li[data-number="2"]');
    expect(await page.locator('#attempts li[data-number="2"]').textContent()).toMatch(
      /#2 200 in \d+ ms · retry now/,
    );
    await waitText(page, '#status', new RegExp(`^${id}: attempt 2/5 → 200 \\(delivered\\)$`));
    expect((await emu.notification(id)).attempts.map((a) => a.trigger)).toEqual(['first', 'manual']);
    expect(await page.locator('#retry-now').isDisabled()).toBe(true); // delivered: nothing to retry
  });

  it('keeps what the stream said when a list read meanwhile arrives later with an older view', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: r.url });
    const page = await newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The page reads the list when the stream says hello; that read is held until the stream has
    // delivered the notification, then answered as a read taken during its first attempt would be.
    await page.route('**/__admin/notifications', async (route) => {
      await released;
      const response = await route.fetch();
      const body = (await response.json()) as { notifications: Array<Record<string, unknown>> };
      const older = body.notifications.map((n) => ({
        ...n,
        state: 'pending',
        attemptCount: 0,
        inFlight: true,
        lastAttempt: null,
      }));
      await route.fulfill({ response, json: { notifications: older } });
    });
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(5)`, /^delivered$/);
    const listed = page.waitForResponse('**/__admin/notifications');
    release();
    await (await listed).finished();
    await page.evaluate(
      () =>
        new Promise((resolve) => (globalThis as unknown as BrowserGlobals).requestAnimationFrame(resolve)),
    );
    expect(await cell(page, id, 5).textContent()).toBe('delivered');
    expect(await cell(page, id, 6).textContent()).toBe('1/5');
  });

  it('filters the list by state, credential and booking, and keeps the filters as rows arrive', async () => {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(500) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    await emu.credential({ id: 'bad', apiKey: 'k', url: bad.url });
    const page = await open(emu);
    const first = await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const ids = async () =>
      page
        .locator('#notification-table tbody tr')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-id')));
    await page.waitForSelector('#notification-table tr[data-id="n-000004"]');
    expect(await ids()).toEqual(['n-000004', 'n-000003', 'n-000002', 'n-000001']); // newest first

    await page.selectOption('#filter-state', 'pending');
    await waitCount(page, '#notification-table tbody tr', 2);
    const pending = await ids();
    expect(pending).toHaveLength(2);
    for (const id of pending) expect(await cell(page, id!, 4).textContent()).toBe('bad');

    await page.selectOption('#filter-state', '');
    await page.selectOption('#filter-credential', 'good');
    await page.fill('#filter-booking', first.reservations[0]!.bookingNumber.toLowerCase());
    await waitCount(page, '#notification-table tbody tr', 1);
    const [only] = await ids();
    expect(await cell(page, only!, 2).textContent()).toBe(first.reservations[0]!.bookingNumber);
    expect(await cell(page, only!, 4).textContent()).toBe('good');

    // A new matching notification appears under the same filters, without a reload.
    await emu.admin('POST', `/reservations/${first.reservations[0]!.bookingId}/redeliver`, {
      status: 'Issued',
    });
    await waitCount(page, '#notification-table tbody tr', 2);
    expect(await page.locator('#filter-booking').inputValue()).toBe(
      first.reservations[0]!.bookingNumber.toLowerCase(),
    );
    expect(await notLoadedAgain(page)).toBe(true);
  });

  it('lists credentials with their filters and warnings, users, and GetAccessToken calls as they happen', async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({
      id: 'pcc-only',
      apiKey: 'k',
      url: 'http://127.0.0.1:9/x',
      filters: { pcc: ['AAA1'], idWeb: [7] },
    });
    await emu.admin('POST', '/users', {
      username: 'alice',
      password: 'secret',
      idWeb: 1001,
      webDescription: 'Agency',
      versions: ['1.7'],
    });
    const page = await open(emu);
    await page.click('#tab-setup');
    await waitText(page, '#credential-table tr[data-id="pcc-only"]', /PCC AAA1 and IdWeb 7/);
    expect(await page.locator('#credential-table tr[data-id="pcc-only"]').textContent()).toContain(
      'plain http destination accepted',
    );
    expect(await page.locator('#user-table').textContent()).toContain('alice');

    await page.click('#tab-journal');
    await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Username: 'alice', Password: 'wrong' }),
    });
    const entry = await waitText(page, '#journal-table tr[data-id="r-000001"]', /alice/);
    expect(entry).toContain('1.7');
    expect(entry).toContain('json');
    expect(entry).toContain('1200');
    expect(await notLoadedAgain(page)).toBe(true);
  });

  it('shows a cancelled notification (its credential deleted) live, filtered by state, with no retry', async () => {
    const r = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'gone', apiKey: 'k', url: r.url });
    const page = await open(emu);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(5)`, /^pending$/);
    await row(page, id).click();
    await page.waitForSelector('#retry-now:not([disabled])');

    expect((await emu.admin('DELETE', '/credentials/gone')).status).toBe(204);
    await waitText(page, `#notification-table tr[data-id="${id}"] td:nth-child(5)`, /^cancelled$/);
    expect(await cell(page, id, 5).locator('.pill.cancelled').count()).toBe(1);
    const note = await waitText(page, '#detail #cancelled', /Cancelled at/);
    expect(note).toBe(
      'Cancelled at 2026-04-27 10:00:00: its credential was deleted (credential_deleted); it is not redelivered.',
    );
    expect(await page.locator('#detail .title .pill.cancelled').textContent()).toBe('cancelled');
    expect(await page.locator('#retry-now').isDisabled()).toBe(true); // the API answers 409 for it

    await page.selectOption('#filter-state', 'cancelled');
    await waitCount(page, '#notification-table tbody tr', 1);
    await page.selectOption('#filter-state', 'pending');
    await waitText(page, '#notifications .empty', /No notification matches these filters/);
    expect(await notLoadedAgain(page)).toBe(true);
  });

  it('runs the receiver conformance kit from its page against a correct HTTPS receiver: every case passes', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const tls = createServerCertificate({ ca: testCa(), hosts: ['localhost', '127.0.0.1'] });
    const r = await verifyTestReceiver('conformance-key', undefined, tls);
    const page = await open(emu);
    await page.click('#tab-verify');
    await page.waitForSelector('#verify-case-survives-batch-burst', { state: 'attached' });
    await page.fill('#verify-receiver', r.url);
    await page.fill('#verify-api-key', 'conformance-key');
    await page.fill('#verify-ca-pem', testCa().certPem);
    await page.fill('#verify-probe', r.probe);
    // The run is held until the page has shown that it is running.
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let sent: Record<string, unknown> | undefined;
    await page.route('**/__admin/verify', async (route) => {
      sent = route.request().postDataJSON() as Record<string, unknown>;
      await released;
      // What the page sent, with a budget: without one the kit cuts deliveries after 10 s without
      // an answer (decision 0239), which a correct receiver sharing two loaded cores with the suite
      // can show. The page's run is what this test checks, not the receiver's speed.
      await route.continue({ postData: JSON.stringify({ ...sent, budgetMs: 600_000 }) });
    });
    await page.click('#verify-run');
    await page.waitForSelector('#verify-run[disabled]');
    await waitText(page, '#verify-run', /^Running…$/);
    await waitText(
      page,
      '#verify-running',
      /Running the conformance kit against https:\/\/localhost:\d+\/reportbo/,
    );
    expect(sent).toEqual({
      receiver: r.url,
      apiKey: 'conformance-key',
      // A textarea's value has \n line ends (the PEM is made with \r\n).
      caPem: testCa().certPem.replaceAll('\r\n', '\n'),
      probe: r.probe,
    });
    release();
    // Per-case progress from the stream (Accept: application/x-ndjson) while the kit runs.
    await page.waitForSelector('#verify-progress li[data-id="tls"][data-status="passed"]', {
      state: 'attached',
    });

    // The whole kit (17 cases) runs here, in this test's process with the emulator and the receiver:
    // with the suite's other files on two cores it has taken 45 s, and once in CI over 100 s
    // (verify-correct-receivers gives the CLI's runs 300 s). A failed run ends the wait too, and the
    // failure shows the report's rows.
    const summary = await waitText(page, '#verify-summary', /^(OK|FAILED): /, 240_000);
    const report = / 17 passed/.test(summary) ? '' : await page.locator('#verify-cases').textContent();
    expect(summary, report ?? '').toMatch(
      /^OK: 17 cases: 17 passed, 0 failed, 0 warned, 0 skipped \(\d+\.\d s\)$/,
    );
    await page.waitForSelector('#verify-run:not([disabled])');
    const rows = await page
      .locator('#verify-cases tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-id'), tr.getAttribute('data-status')]));
    expect(rows).toHaveLength(17);
    expect(rows.map(([, status]) => status)).toEqual(Array(17).fill('passed'));
    expect(rows.map(([caseId]) => caseId)).toContain('same-second-filename-collision');
    expect(await page.locator('#verify-cases tr[data-id="tls"] td').first().textContent()).toBe('✓ passed');
    expect(await page.locator('#verify-cases tr[data-id="tls"] .pill.ok').count()).toBe(1);
    expect(await page.locator('#verify-cases tr[data-id="tls"]').textContent()).toMatch(
      /TLSv1\.[23], certificate for .*localhost/,
    );
    expect(await page.locator('#verify-cases details').count()).toBe(0); // nothing to explain
    expect(await page.locator('#verify-report h2').textContent()).toContain(`· ${r.url} ·`);
    // The kit ran its own emulator: this one saw nothing.
    expect(
      (await emu.admin<{ notifications: unknown[] }>('GET', '/notifications')).body.notifications,
    ).toEqual([]);
    expect(await notLoadedAgain(page)).toBe(true);
  });

  it('shows a failed conformance case with its evidence, rule and fix, and keeps it open across live updates', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const r = await verifyTestReceiver('conformance-key', 'answers-202');
    const page = await open(emu);
    await page.goto(`${emu.url}/__admin/ui#verify`);
    await page.waitForSelector('#live.on');
    await page.waitForSelector('#verify-case-acknowledges-issue', { state: 'attached' });
    await page.fill('#verify-receiver', r.url);
    await page.fill('#verify-api-key', 'conformance-key');
    await page.check('#verify-allow-http');
    await page.check('#verify-case-tls');
    await page.check('#verify-case-acknowledges-issue');
    await page.fill('#verify-timeout', '5000');
    await page.click('#verify-run');

    const summary = await waitText(page, '#verify-summary', /^FAILED: /);
    expect(summary).toMatch(/^FAILED: 2 cases: 0 passed, 1 failed, 1 warned, 0 skipped/);
    expect(await page.locator('#verify-report h2').textContent()).toContain('response timeout 5000 ms');
    const failed = page.locator('#verify-cases tr[data-id="acknowledges-issue"]');
    expect(await failed.getAttribute('data-status')).toBe('failed');
    expect(await failed.locator('td').first().textContent()).toBe('✗ failed');
    expect(await failed.locator('.pill.failed').count()).toBe(1);
    expect(await failed.locator('td.reason').textContent()).toMatch(
      /^the Issue: HTTP 202\. Only exactly 200/,
    );
    const warned = page.locator('#verify-cases tr[data-id="tls"]');
    expect(await warned.locator('td').first().textContent()).toBe('! warned');
    expect(await warned.locator('.pill.pending').count()).toBe(1);

    const evidence = failed.locator('details.evidence');
    expect(await evidence.getAttribute('open')).toBeNull();
    await evidence.locator('summary').click();
    await page.waitForSelector('#verify-cases tr[data-id="acknowledges-issue"] details.evidence[open]');
    const lines = await evidence
      .locator('.line')
      .evaluateAll((ls) => ls.map((l) => [l.children[0]!.textContent, l.children[1]!.textContent]));
    expect(lines.map(([label]) => label)).toEqual(['sent', 'received', 'rule', 'fix']);
    const text = Object.fromEntries(lines);
    expect(text.sent).toMatch(
      new RegExp(
        `^POST ${r.url}: Issued BookingID \\d+ \\(filename \\d{8}_\\d{6}Z-\\w{6}\\.json, \\d+ bytes gzip\\), Authorization: Bearer <your ApiKey>$`,
      ),
    );
    expect(text.received).toMatch(/^HTTP 202 after \d+ ms, body "accepted"$/);
    expect(text.rule).toMatch(/^spec "Endpoints 1" rule 2/);
    expect(text.fix).toMatch(/^Answer exactly 200/);
    // A warning explains itself too (its rule and fix; it has no evidence).
    expect(await warned.locator('details.evidence summary').textContent()).toMatch(/rule and fix$/i);

    // A live update redraws the page: the opened evidence and the form stay as they were.
    await emu.admin('POST', '/users', { username: 'later', password: 'p', idWeb: 1, webDescription: 'x' });
    await page.click('#tab-setup');
    await waitText(page, '#user-table', /later/);
    await page.click('#tab-verify');
    await page.waitForSelector('#verify-cases tr[data-id="acknowledges-issue"] details.evidence[open]');
    expect(await page.locator('#verify-receiver').inputValue()).toBe(r.url);
    expect(await page.locator('#verify-allow-http').isChecked()).toBe(true);
    expect(await page.locator('#verify-case-acknowledges-issue').isChecked()).toBe(true);
    expect(await page.locator('#verify-case-answers-within-timeout').isChecked()).toBe(false);
  });

  it('shows the problem the admin API answers (400) for a bad receiver URL, and for plain http without the checkbox', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const page = await open(emu);
    await page.click('#tab-verify');
    await page.waitForSelector('#verify-form');
    await page.fill('#verify-receiver', 'receiver.example/reportbo');
    await page.fill('#verify-api-key', 'k');
    const answered = page.waitForResponse('**/__admin/verify');
    await page.click('#verify-run');
    expect((await answered).status()).toBe(400);
    const message = await waitText(page, '#verify-error', /absolute URL/);
    expect(message).toBe(
      'receiver "receiver.example/reportbo" is not an absolute URL; expected e.g. https://receiver.example/reportbo.',
    );
    expect(await page.locator('#verify-report').count()).toBe(0);
    await page.waitForSelector('#verify-run:not([disabled])');

    // Plain http without the checkbox: the API's own advice, naming the checkbox's member.
    await page.fill('#verify-receiver', 'http://127.0.0.1:9/reportbo');
    await page.click('#verify-run');
    await waitText(page, '#verify-error', /plain http.*add allowHttp/);
    // Chromium logs each 4xx answer of fetch as a console error: these two were the point of the test.
    await expect.poll(() => pageErrors.length, { timeout: WAIT_DEADLINE_MS }).toBe(2);
    const logged = pageErrors.splice(0);
    for (const line of logged) expect(line).toMatch(/status of 400 \(Bad Request\)/);
  });

  it('draws the README screenshot: two credentials, a delivered and a retried notification, its attempts', async () => {
    const good = await receiver();
    const wrong = await receiver({ defaultBehaviour: behave.status(401, 'unknown ApiKey') });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k-main', url: good.url });
    await emu.credential({ id: 'wrong-key', apiKey: 'k-old', url: wrong.url, filters: { pcc: ['WRONG1'] } });
    const issued = await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue', overrides: { Reservation: { PCCBook: 'WRONG1' } } });
    await emu.event({ type: 'Exchange', bookingId: issued.reservations[0]!.bookingId });
    await emu.settle();
    await emu.advance({ to: 'next-batch' });
    const page = await open(emu);
    await page.setViewportSize({ width: 1600, height: 1100 });
    await row(page, 'n-000003').click();
    await page.waitForSelector('#attempts li[data-number="2"]');
    // The inspector: the receiver's first answer opened, what changed shown under the second.
    await page.click('#attempts li[data-number="1"] details.answer summary');
    await page.waitForSelector('#attempts li[data-number="1"] details.answer[open]');
    const png = await page.screenshot({ fullPage: false });
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    if (process.env.UPDATE_SCREENSHOT === '1') await writeFile(SCREENSHOT, png);
  });
});
