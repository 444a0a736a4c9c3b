/**
 * The set-up page's panels (ui/panel.js, decision 0104), in real chromium: a refusal is shown at the
 * field the admin API names and described by it, and it goes as soon as it is no longer true (the
 * field is edited, the edit is cancelled); an edit whose row was deleted meanwhile becomes an add;
 * the row buttons say what they act on; a panel is used with the keyboard alone (the focus follows an
 * Edit to the form, and stays in the panel when a row is removed).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PAGE_LIMIT } from '../src/admin/contract/fields.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';

const { open, pageErrors } = useChromium();

async function typeInto(page: Page, selector: string, text: string) {
  await page.fill(selector, '');
  await page.fill(selector, text);
}

/** Whether the element `inner` sits inside the field (`.field`) of the control `control`. */
const insideFieldOf = (page: Page, inner: string, control: string) =>
  page.evaluate(
    `document.querySelector(${JSON.stringify(control)})?.closest('.field')?.contains(document.querySelector(${JSON.stringify(inner)})) ?? false`,
  );

describe.skipIf(!haveChromium)('the set-up panels', () => {
  it('shows a refusal at its field and clears it once no longer true; an edit of a deleted row becomes an add', async () => {
    const emu = await deliveryEmulator({ allowHttp: false, seed: 42 });
    const page = await open(emu.url, '#setup');
    await waitText(page, '#credentials-panel .empty', /No credentials yet/);

    // http:// without allowHttp: the message sits at the URL field, which it describes.
    await typeInto(page, '#credential-id', 'main');
    await typeInto(page, '#credential-apiKey', 'k-1');
    await typeInto(page, '#credential-url', 'http://127.0.0.1:9/hook');
    await page.click('#credential-submit');
    await waitText(page, '#credential-error', /./);
    expect(await insideFieldOf(page, '#credential-error', '#credential-url')).toBe(true);
    expect(await page.locator('#credential-url').getAttribute('aria-describedby')).toContain(
      'credential-error',
    );
    // Another field edited: the URL is still refused, the message stays.
    await typeInto(page, '#credential-apiKey', 'k-2');
    expect(await page.locator('#credential-error').count()).toBe(1);
    // The URL edited: the refusal no longer applies to what is typed.
    await typeInto(page, '#credential-url', 'https://127.0.0.1:9/hook');
    await expect.poll(() => page.locator('#credential-error').count()).toBe(0);
    expect(await page.locator('#credential-url').getAttribute('aria-invalid')).toBeNull();
    await page.click('#credential-submit');
    await waitText(page, '#status', /^Credential main added$/);

    // An edit refused, then cancelled: the message goes with it.
    await page.click('#edit-credential-main');
    await waitText(page, '#credential-form h3', /^Edit credential main$/);
    await typeInto(page, '#credential-url', 'http://127.0.0.1:9/hook');
    await page.click('#credential-submit');
    await waitText(page, '#credential-error', /./);
    await page.click('#credential-cancel');
    await waitText(page, '#credential-form h3', /^Add a credential$/);
    expect(await page.locator('#credential-error').count()).toBe(0);

    // Editing a credential that another client deletes: the form adds again, keeping what was typed.
    await page.click('#edit-credential-main');
    await waitText(page, '#credential-form h3', /^Edit credential main$/);
    await typeInto(page, '#credential-apiKey', 'k-3');
    expect((await emu.admin('DELETE', '/credentials/main')).status).toBe(204);
    await waitText(page, '#credential-form h3', /^Add a credential$/);
    expect(await page.locator('#credential-id').getAttribute('readonly')).toBeNull();
    expect(await page.locator('#credential-apiKey').inputValue()).toBe('k-3');
    await page.click('#credential-submit');
    await waitText(page, '#credential-table tr[data-id="main"]', /k-3/);
    expect(pageErrors.splice(0).map((line) => line.replace(/.*status of (\d+).*/, '$1'))).toEqual([
      '400',
      '400',
    ]);
  });

  it('names what each row button acts on, and adds and removes a fault with the keyboard alone', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    await emu.admin('POST', '/users', { username: 'alice', password: 'pw', idWeb: 7, webDescription: 'A' });
    const page = await open(emu.url, '#setup');
    // Edit with the keyboard: the focus moves to the first field it can change.
    await page.getByRole('button', { name: 'Edit user alice' }).press('Enter');
    await waitText(page, '#user-form h3', /^Edit user alice$/);
    await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('user-password');
    await page.click('#user-cancel');
    await page.getByRole('button', { name: 'Delete user alice' }).click();
    await page.getByRole('button', { name: 'Click again to delete user alice' }).waitFor();

    // Kind "delay" (chosen with the keyboard) shows the delay field and hides the status field.
    await page.focus('#fault-kind');
    await page.keyboard.press('ArrowDown');
    await page.waitForSelector('#fault-delayMs');
    expect(await page.locator('#fault-status').count()).toBe(0);
    await page.focus('#fault-delayMs');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('abc');
    await page.keyboard.press('Enter');
    // The text typed reaches the API, which names the field (not a number turned into null).
    await waitText(page, '#fault-error', /delayMs|number/i);
    expect(await page.locator('#fault-delayMs').getAttribute('aria-invalid')).toBe('true');
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('250');
    await page.keyboard.press('Enter');
    await waitText(page, '#fault-table tbody tr', /delay 250 ms/);
    const [fault] = (await emu.admin<{ faults: Array<{ id: string }> }>('GET', '/faults')).body.faults;
    await page.getByRole('button', { name: `Remove fault ${fault!.id}` }).press('Enter');
    await waitText(page, '#faults-panel .empty', /No fault/);
    // The button went with its row: the keyboard stays in the panel, on its form.
    expect(await page.evaluate('document.activeElement?.id')).toBe('fault-kind');
    expect(pageErrors.splice(0)).toHaveLength(1); // the refused "abc"
  });

  it("lists every user past the admin API's page of 1,000 (it reads every page, decision 0236)", async () => {
    const emu = await deliveryEmulator();
    const count = PAGE_LIMIT + 50;
    for (let i = 0; i < count; i++) {
      const username = `user${String(i).padStart(4, '0')}`;
      emu.server.emulator.auth.users.add({ username, password: 'p', idWeb: i + 1, webDescription: 'w' });
    }
    const page = await open(emu.url, '#setup');
    await expect
      .poll(() => page.locator('#users-panel tbody tr').count(), { timeout: WAIT_DEADLINE_MS })
      .toBe(count);
    // The oldest is on no first page: the dashboard read the older ones.
    expect(await page.locator('#users-panel tbody tr', { hasText: 'user0000' }).count()).toBe(1);
    expect(pageErrors).toEqual([]);
  });
});
