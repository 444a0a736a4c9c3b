/**
 * The dashboard's states in real chromium: "Loading…" before the first data (never "none yet"),
 * redraws that change only what changed (the caret stays where the reader types while events
 * stream; a row that did not change is the same DOM node). The page with 5,000 notifications is
 * in dashboard-load.scale.test.ts (npm run test:scale).
 */
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';

const { newPage, open } = useChromium();

interface Marked {
  document: {
    querySelector(s: string): (Record<string, unknown> & { id: string }) | null;
    activeElement: unknown;
  };
}

describe.skipIf(!haveChromium)('the dashboard’s states in chromium', () => {
  it('says "Loading…" until the first data, then what there is', async () => {
    const emu = await deliveryEmulator({ seed: 42 });
    const page = await newPage();
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/__admin/credentials', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${emu.url}/__admin/ui`);
    await page.waitForSelector('#live.on');
    expect(await waitText(page, '#notification-list .empty', /./)).toBe('Loading…');
    expect(await page.locator('#tab-notifications .count').textContent()).toBe('…');
    expect(await page.locator('#main').getAttribute('aria-busy')).toBe('true');
    release();
    await waitText(page, '#notification-list .empty', /^No credentials yet/);
    expect(await page.locator('#tab-notifications .count').textContent()).toBe('0');
    expect(await page.locator('#main').getAttribute('aria-busy')).toBeNull();
  });

  it('keeps focus and caret in the search box while events stream, and leaves unchanged rows alone', async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'main', apiKey: 'k', url: 'http://127.0.0.1:9/' });
    const page = await open(emu.url);
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await page.waitForSelector('#notification-table tr[data-id="n-000001"]');
    await page.evaluate(() => {
      (globalThis as unknown as Marked).document.querySelector(
        '#notification-table tr[data-id="n-000001"]',
      )!.marked = true;
    });

    // Events stream while the reader types: at least 10, at most 150, so the first row stays
    // among the newest 300 the page lists however slow the machine is.
    let typing = true;
    let sent = 1;
    const stream = (async () => {
      while ((typing || sent < 10) && sent < 150) {
        await emu.event({ type: 'Issue' });
        sent += 1;
      }
    })();
    await page.click('#filter-booking');
    await page.keyboard.type('ABCD', { delay: 40 });
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.type('xy', { delay: 40 });
    typing = false;
    await stream;
    const last = `n-${String(sent).padStart(6, '0')}`;
    // The page heard every event (the table is filtered to none, the count says how many exist).
    await waitText(page, '#tab-notifications .count', new RegExp(`^${sent}$`));
    const focus = await page.evaluate(() => {
      const el = (globalThis as unknown as Marked).document.activeElement as {
        id: string;
        value: string;
        selectionStart: number;
      };
      return { id: el.id, value: el.value, caret: el.selectionStart };
    });
    expect(focus).toEqual({ id: 'filter-booking', value: 'ABxyCD', caret: 4 });

    // Cleared: every row is back, and the first one is still the node it was.
    await page.fill('#filter-booking', '');
    await page.waitForSelector(`#notification-table tr[data-id="${last}"]`);
    await page.waitForSelector('#notification-table tr[data-id="n-000001"]');
    expect(
      await page.evaluate(
        () =>
          (globalThis as unknown as Marked).document.querySelector(
            '#notification-table tr[data-id="n-000001"]',
          )!.marked,
      ),
    ).toBe(true);
  });
});
