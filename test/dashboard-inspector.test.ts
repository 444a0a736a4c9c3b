/**
 * The dashboard as a delivery inspector, in real chromium: set-up from the page (credentials, users,
 * a CA, faults) through the admin API with its own messages; per delivery the receiver's answers,
 * what changed between attempts, copy as curl with the gzip body as a file (run with the real curl
 * against a real receiver); the journal's request and response; delivery figures per credential.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitCount, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';
import { testCa, testCaFile, tlsReceiver } from './helpers/tls.js';

const { open, pageErrors } = useChromium();
const run = promisify(execFile);
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

/** Chromium logs every 4xx answer of fetch as a console error: the ones a test caused on purpose. */
async function expectRefusals(count: number, status: RegExp) {
  await expect.poll(() => pageErrors.length, { timeout: WAIT_DEADLINE_MS }).toBe(count);
  for (const line of pageErrors.splice(0)) expect(line).toMatch(status);
}

async function typeInto(page: Page, selector: string, text: string) {
  await page.fill(selector, '');
  await page.fill(selector, text);
}

describe.skipIf(!haveChromium)('the delivery inspector in chromium', () => {
  it('adds, edits and deletes a credential from the page, showing the admin API message for a bad one', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: false, seed: 42 });
    const page = await open(emu.url, '#setup');
    await waitText(page, '#credentials-panel .empty', /No credentials yet/);

    // An http:// URL without allowHttp: the API's own message, on the form, the field marked.
    await typeInto(page, '#credential-id', 'main');
    await typeInto(page, '#credential-apiKey', 'k-1');
    await typeInto(page, '#credential-url', r.url);
    await page.click('#credential-submit');
    const refused = await emu.admin<{ error: { message: string } }>('POST', '/credentials', {
      id: 'main',
      apiKey: 'k-1',
      url: r.url,
    });
    expect(refused.status).toBe(400);
    expect(await waitText(page, '#credential-error', /./)).toBe(refused.body.error.message);
    expect(await page.locator('#credential-url').getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#credential-id').inputValue()).toBe('main'); // kept for a fix
    await expectRefusals(1, /status of 400/);

    // Fixed: https, with filters.
    await typeInto(page, '#credential-url', 'https://127.0.0.1:9/hook');
    await typeInto(page, '#credential-pcc', 'AAA1, BBB2');
    await typeInto(page, '#credential-idWeb', '7');
    await page.click('#credential-submit');
    await waitText(page, '#credential-table tr[data-id="main"]', /PCC AAA1, BBB2 and IdWeb 7/);
    await waitText(page, '#status', /^Credential main added$/);
    expect(await page.locator('#credential-id').inputValue()).toBe(''); // cleared for the next one
    expect(await page.locator('#credential-error').count()).toBe(0);

    // Edit: the form fills with it; the id cannot change; the API has the new key after Save.
    await page.click('#edit-credential-main');
    await expect.poll(() => page.locator('#credential-apiKey').inputValue()).toBe('k-1');
    expect(await page.locator('#credential-id').getAttribute('readonly')).toBe('');
    await typeInto(page, '#credential-apiKey', 'k-2');
    await typeInto(page, '#credential-pcc', '');
    await page.click('#credential-submit');
    await waitText(page, '#status', /^Credential main changed/);
    await waitText(page, '#credential-table tr[data-id="main"]', /k-2IdWeb 7/);
    const listed = await emu.admin<{ credentials: Array<{ apiKey: string; filters: unknown }> }>(
      'GET',
      '/credentials',
    );
    expect(listed.body.credentials).toEqual([
      expect.objectContaining({ apiKey: 'k-2', filters: { idWeb: [7] } }),
    ]);

    // Delete: the first click only arms the button.
    await page.click('#delete-credential-main');
    await waitText(page, '#delete-credential-main', /Click again to delete/);
    expect(
      (await emu.admin<{ credentials: unknown[] }>('GET', '/credentials')).body.credentials,
    ).toHaveLength(1);
    await page.click('#delete-credential-main');
    await waitText(page, '#credentials-panel .empty', /No credentials yet/);
    expect((await emu.admin<{ credentials: unknown[] }>('GET', '/credentials')).body.credentials).toEqual([]);
  });

  it('adds, edits and deletes a GetAccessToken user; the edited password is the one that works', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const page = await open(emu.url, '#setup');
    await waitText(page, '#users-panel .empty', /No users yet/);
    await typeInto(page, '#user-username', 'alice');
    await typeInto(page, '#user-password', 'one');
    await typeInto(page, '#user-idWeb', 'x12');
    await typeInto(page, '#user-webDescription', 'Agency');
    await page.uncheck('#user-v16');
    await page.click('#user-submit');
    // The API's message names the field; the form marks it.
    await waitText(page, '#user-error', /idWeb/);
    expect(await page.locator('#user-idWeb').getAttribute('aria-invalid')).toBe('true');
    await expectRefusals(1, /status of 400/);
    await typeInto(page, '#user-idWeb', '1001');
    await page.click('#user-submit');
    await waitText(page, '#user-table tr[data-id="alice"]', /alice1001Agency1\.7/);

    await page.click('#edit-user-alice');
    await expect.poll(() => page.locator('#user-webDescription').inputValue()).toBe('Agency');
    await typeInto(page, '#user-password', 'two');
    await page.check('#user-v16');
    await page.click('#user-submit');
    await waitText(page, '#user-table tr[data-id="alice"]', /1\.6, 1\.7/);
    const token = async (Password: string) =>
      (
        (await (
          await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ Username: 'alice', Password }),
          })
        ).json()) as { TransactionCode: string | null }
      ).TransactionCode;
    expect(await token('one')).toBe('1200');
    expect(await token('two')).toBeNull();

    await page.click('#delete-user-alice');
    await page.click('#delete-user-alice');
    await waitText(page, '#users-panel .empty', /No users yet/);
    expect((await emu.admin<{ users: unknown[] }>('GET', '/users')).body.users).toEqual([]);
  });

  it('trusts a pasted CA and removes it, and adds and removes a GetAccessToken fault', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const page = await open(emu.url, '#setup');
    await waitText(page, '#trust-panel .empty', /Only the system roots/);
    await page.fill('#trust-pem', 'not a certificate');
    await page.click('#trust-submit');
    await waitText(page, '#trust-error', /./);
    await expectRefusals(1, /status of 400/);
    await page.fill('#trust-pem', testCa().certPem);
    await page.click('#trust-submit');
    await waitText(page, '#trust-table', /reportbo-emulator e2e CA/);
    expect((await emu.admin<{ certificates: unknown[] }>('GET', '/trust')).body.certificates).toHaveLength(1);
    const untrust = page.locator('#trust-table button.danger');
    await untrust.click();
    await untrust.click();
    await waitText(page, '#trust-panel .empty', /Only the system roots/);

    await page.selectOption('#fault-version', '1.7');
    await page.selectOption('#fault-variant', 'json');
    await typeInto(page, '#fault-status', '503');
    await typeInto(page, '#fault-count', '2');
    await page.click('#fault-submit');
    const row = await waitText(page, '#fault-table tbody tr', /status 503/);
    expect(row).toContain('1.7 · json');
    expect(row).toContain('2 calls');
    const call = () =>
      fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Username: 'x', Password: 'y' }),
      });
    expect((await call()).status).toBe(503);
    await waitText(page, '#fault-table tbody tr td:nth-child(4)', /^1 call$/); // used up live
    await page.locator('#fault-table tbody tr button').click();
    await waitText(page, '#faults-panel .empty', /No fault/);
    expect((await call()).status).toBe(200);
  });

  it("shows the receiver's answers, what changed between attempts, both clocks and the next attempt", async () => {
    const r = await receiver();
    r.enqueue({
      kind: 'status',
      status: 503,
      body: 'busy, retry later',
      headers: { 'Retry-After': '120', 'X-Trace': 't-1' },
    });
    r.enqueue({ kind: 'status', status: 200, body: 'ok', headers: { 'X-Trace': 't-2' } });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k-main', url: r.url });
    const page = await open(emu.url);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    const row = `#notification-table tr[data-id="${id}"]`;
    await waitText(page, `${row} td:nth-child(7)`, /^503$/);
    expect(await page.locator(`${row} td:nth-child(8)`).textContent()).toBe('10:55:00'); // next attempt at
    expect(await page.locator(`${row} td:nth-child(10)`).textContent()).toBe('10:00:00'); // emulator
    expect(await page.locator(`${row} td:nth-child(11)`).textContent()).toMatch(/^\d\d:\d\d:\d\d$/); // wall
    await page.click(row);
    await waitText(page, '#next-attempt', /^Next attempt at 2026-04-27 10:55:00 \(emulator time/);
    const first = page.locator('#attempts li[data-number="1"]');
    await first.locator('details.answer summary').click();
    expect(await first.locator('.answer-headers').textContent()).toContain('retry-after120');
    expect(await first.locator('.response-body').textContent()).toBe('busy, retry later');

    await emu.advance({ to: 'next-batch' });
    const second = page.locator('#attempts li[data-number="2"]');
    await second.waitFor();
    const changes = (await second.locator('.changes').textContent()) ?? '';
    expect(changes).toMatch(/^Since #1: request identical \(the same \d+ gzip bytes and headers\); answer: /);
    expect(changes).toContain('status 503 → 200');
    expect(changes).toContain('retry-after removed');
    expect(changes).toContain('x-trace changed');
    expect(changes).toContain('body changed');
    // The first attempt's answer stays open across the live updates.
    expect(await first.locator('details.answer').getAttribute('open')).toBe('');
    await waitText(page, `${row} td:nth-child(8)`, /^$/); // delivered: no next attempt
  });

  it('copies the request as curl; the downloaded .gz and the command send the same bytes again', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: "k'quoted", url: `${r.url}/hook?x=1` });
    const page = await open(emu.url);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await page.click(`#notification-table tr[data-id="${id}"]`);
    await page.waitForSelector(`#detail[data-id="${id}"] #curl`);
    const curl = (await page.locator('#curl').textContent()) ?? '';
    const detail = await emu.notification(id);
    expect(curl).toContain(`--data-binary @'${detail.filename}.gz'`);
    expect(curl).toContain(`-H 'Authorization: Bearer k'\\''quoted'`);
    expect(curl).not.toContain('Content-Length');

    const dir = await mkdtemp(join(tmpdir(), 'reportbo-curl-'));
    dirs.push(dir);
    const downloading = page.waitForEvent('download');
    await page.click('#download-gz');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${detail.filename}.gz`);
    await download.saveAs(join(dir, download.suggestedFilename()));
    const gz = await readFile(join(dir, download.suggestedFilename()));
    expect(gz.equals(r.requests[0]!.rawBody)).toBe(true);
    expect(await page.locator('#raw-body').textContent()).toBe(gunzipSync(gz).toString('utf8'));

    // The command, as shown, run by the real curl next to the downloaded file.
    const { stdout } = await run('sh', ['-c', curl.replaceAll('\\\n', ' ')], { cwd: dir });
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('HTTP 200');
    expect(curl).not.toContain('--cacert'); // http://: no CA to name
    await expect.poll(() => r.requests.length).toBe(2);
    const [sent, again] = r.requests;
    expect(again!.rawBody.equals(sent!.rawBody)).toBe(true);
    for (const name of [
      'authorization',
      'user-agent',
      'content-type',
      'content-encoding',
      'content-disposition',
      'content-length',
    ])
      expect(again!.headers[name], name).toBe(sent!.headers[name]);
    expect(again!.path).toBe('/hook?x=1');
  });

  it('offers curl with --cacert for a receiver trusted through the CA file, and a one-paste variant; both run with the real curl', async () => {
    // The CA is made by the project's own certs code (src/certs), as `reportbo-emulator certs` makes it.
    const caFile = testCaFile();
    const r = await tlsReceiver('trusted');
    const emu = await deliveryEmulator({ allowHttp: false, seed: 42, caFile });
    await emu.credential({ id: 'tls', apiKey: 'k-tls', url: `${r.url}/hook?x=1` });
    const page = await open(emu.url);
    const id = (await emu.event({ type: 'Issue' })).notifications[0]!.id;
    await emu.settle();
    // The page has heard the answer before its row is clicked: a click as the stream re-renders the
    // row can land between the old row and the new one, and nothing is selected.
    const row = `#notification-table tr[data-id="${id}"]`;
    await waitText(page, `${row} td:nth-child(7)`, /^200$/);
    await page.click(row);
    await page.waitForSelector(`#detail[data-id="${id}"] #curl-inline`, { state: 'attached' });
    const curl = (await page.locator('#curl').textContent()) ?? '';
    const inline = (await page.locator('#curl-inline').textContent()) ?? '';
    expect(curl).toContain(`--cacert '${caFile}'`);
    expect(inline).toContain(`--cacert '${caFile}'`);
    expect(await page.locator('#curl-hint').textContent()).toContain(`--cacert ${caFile}`);
    expect(inline).toContain('--data-binary @-');
    expect(inline).not.toContain('.gz');

    // The one-paste variant from an empty directory: nothing downloaded, the body comes from the command.
    const dir = await mkdtemp(join(tmpdir(), 'reportbo-curl-'));
    dirs.push(dir);
    const pasted = await run('sh', ['-c', inline.replaceAll('\\\n', ' ')], { cwd: dir });
    expect(pasted.stdout.trimEnd().split('\n').at(-1)).toBe('HTTP 200');
    await expect.poll(() => r.requests.length).toBe(2);
    const [sent, again] = r.requests;
    expect(again!.rawBody.equals(sent!.rawBody)).toBe(true);
    for (const name of [
      'authorization',
      'user-agent',
      'content-type',
      'content-encoding',
      'content-disposition',
      'content-length',
    ])
      expect(again!.headers[name], name).toBe(sent!.headers[name]);
    expect(again!.path).toBe('/hook?x=1');

    // The file variant, beside the downloaded body: the same bytes a third time.
    const downloading = page.waitForEvent('download');
    await page.click('#download-gz');
    const download = await downloading;
    await download.saveAs(join(dir, download.suggestedFilename()));
    const fromFile = await run('sh', ['-c', curl.replaceAll('\\\n', ' ')], { cwd: dir });
    expect(fromFile.stdout.trimEnd().split('\n').at(-1)).toBe('HTTP 200');
    await expect.poll(() => r.requests.length).toBe(3);
    expect(r.requests[2]!.rawBody.equals(sent!.rawBody)).toBe(true);

    // Without --cacert the same command is refused by curl: the CA is what makes it work.
    const without = inline.replace(`--cacert '${caFile}'`, '');
    await expect(run('sh', ['-c', without.replaceAll('\\\n', ' ')], { cwd: dir })).rejects.toThrow(
      /certificate/i,
    );
    expect(r.requests).toHaveLength(3);
  });

  it('opens a GetAccessToken call from the journal as the client sent it and got it back, JSON indented', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    await emu.admin('POST', '/users', {
      username: 'alice',
      password: 'pw',
      idWeb: 7,
      webDescription: 'A',
      versions: ['1.7'],
    });
    const page = await open(emu.url, '#journal');
    const body = JSON.stringify({ Username: 'alice', Password: 'pw' });
    const res = await fetch(`${emu.url}/api/1.7/AuthService.json/GetAccessToken`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-sdk': 'test-sdk/1.0' },
      body,
    });
    const answer = await res.text();
    await page.click('#journal-table tr[data-id="r-000001"]');
    const request = await waitText(
      page,
      '#journal-request',
      /POST \/api\/1\.7\/AuthService\.json\/GetAccessToken/,
    );
    expect(request).toContain('x-sdk: test-sdk/1.0');
    // JSON bodies are shown indented for reading, the bytes as they went over the wire under "As sent".
    const indented = (text: string) => JSON.stringify(JSON.parse(text), null, 2);
    expect(await page.locator('#journal-request pre.http-body').textContent()).toBe(indented(body));
    expect(await page.locator('#journal-request pre.http-body-raw').textContent()).toBe(body);
    expect(await page.locator('#journal-response pre.http').textContent()).toMatch(/^HTTP 200\n/);
    expect(await page.locator('#journal-response pre.http').textContent()).toMatch(/^X-API-User-IDWeb: 7$/im);
    expect(await page.locator('#journal-response pre.http-body').textContent()).toBe(indented(answer));
    expect(await page.locator('#journal-response pre.http-body-raw').textContent()).toBe(answer);
    await page.click('#journal-response details.as-sent summary');
    await expect.poll(() => page.locator('#journal-response pre.http-body-raw').isVisible()).toBe(true);
  });

  it('shows each credential’s attempts, success rate, last failure and next batch, updated live', async () => {
    const good = await receiver();
    const bad = await receiver({ defaultBehaviour: behave.status(503) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'good', apiKey: 'k', url: good.url });
    await emu.credential({ id: 'bad', apiKey: 'k', url: bad.url });
    const page = await open(emu.url, '#setup');
    await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Issue' });
    await emu.settle();
    const cell = (cred: string, cls: string) => `#credential-table tr[data-id="${cred}"] td.${cls}`;
    await waitText(page, cell('good', 'stat-attempts'), /^2$/);
    expect(await page.locator(cell('good', 'stat-rate')).textContent()).toBe('100%');
    expect(await page.locator(cell('good', 'stat-failure')).textContent()).toBe('—');
    expect(await page.locator(cell('good', 'stat-next')).textContent()).toBe('—');
    await waitText(page, cell('bad', 'stat-attempts'), /^2$/);
    expect(await page.locator(cell('bad', 'stat-rate')).textContent()).toBe('0%');
    expect(await page.locator(cell('bad', 'stat-failure')).textContent()).toMatch(
      /^503 · n-00000[24] #1 · 2026-04-27 10:00:00$/,
    );
    expect(await page.locator(cell('bad', 'stat-next')).textContent()).toBe('10:55:00');
    await emu.advance({ to: 'next-batch' });
    await waitText(page, cell('bad', 'stat-attempts'), /^4$/);
    await waitText(page, cell('bad', 'stat-failure'), /#2 · 2026-04-27 10:55:00$/);
    expect(await page.locator(cell('bad', 'stat-next')).textContent()).toBe('11:55:00');
    await waitCount(page, '#credential-table tbody tr', 2);
  });
});
