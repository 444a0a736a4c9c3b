/**
 * Scale (npm run test:scale): a dashboard page with 5,000 notifications streaming in stays
 * responsive and counts every one; its figures are printed, not asserted (the machine is shared).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { deliveryEmulator } from './helpers/delivery.js';

const { open } = useChromium();

/** Posts `count` Issue events, `parallel` at a time. */
async function events(
  emu: { event(input: Record<string, unknown>): Promise<unknown> },
  count: number,
  parallel = 8,
) {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        next++;
        await emu.event({ type: 'Issue' });
      }
    }),
  );
}

/** Input latency in the page: from a key's event to the frame after its redraw, for each key typed. */
async function typeMeasured(page: Page, selector: string, text: string): Promise<number[]> {
  await page.evaluate((sel) => {
    const g = globalThis as unknown as {
      document: {
        querySelector(s: string): {
          addEventListener(k: string, f: (e: { timeStamp: number }) => void): void;
        };
      };
      performance: { now(): number };
      requestAnimationFrame(f: () => void): void;
      latencies: number[];
    };
    g.latencies = [];
    g.document.querySelector(sel).addEventListener('input', (e) => {
      const t0 = e.timeStamp;
      g.requestAnimationFrame(() => setTimeout(() => g.latencies.push(g.performance.now() - t0), 0));
    });
  }, selector);
  await page.focus(selector);
  await page.keyboard.type(text, { delay: 30 });
  await page.waitForFunction(
    (n) => (globalThis as unknown as { latencies: number[] }).latencies.length >= n,
    text.length,
  );
  return page.evaluate(() => (globalThis as unknown as { latencies: number[] }).latencies);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

describe.skipIf(!haveChromium)('the dashboard with 5,000 notifications, in chromium', () => {
  it('stays responsive with 5,000 notifications streaming in (figures printed)', {
    timeout: 300_000,
  }, async () => {
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    // A closed port: every first attempt fails at once, and all 5,000 stay pending.
    await emu.credential({ id: 'main', apiKey: 'k', url: 'http://127.0.0.1:9/' });
    const page = await open(emu.url);
    // The page's own CPU time (chromium's TaskDuration, seconds) over the burst.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const taskSeconds = async () =>
      (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
    const cpuBefore = await taskSeconds();
    const started = Date.now();
    const burst = events(emu, 5000);
    // Typed while the burst streams in: the page answers the keys between redraws.
    const during = await typeMeasured(page, '#filter-booking', 'ZZZZZZ');
    await burst;
    const burstMs = Date.now() - started;
    const pageCpuMs = Math.round(((await taskSeconds()) - cpuBefore) * 1000);
    await page.fill('#filter-booking', '');
    await waitText(page, '#notifications .panel h2', /^Newest 300 of 5000 notifications$/);
    const shownMs = Date.now() - started;

    // One more event, from its POST to its row on the page, with 5,000 there.
    const rowTimes: number[] = [];
    const postTimes: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t0 = Date.now();
      const id = ((await emu.event({ type: 'Issue' })) as { notifications: Array<{ id: string }> })
        .notifications[0]!.id;
      postTimes.push(Date.now() - t0);
      await page.waitForSelector(`#notification-table tr[data-id="${id}"]`);
      rowTimes.push(Date.now() - t0);
    }
    const after = await typeMeasured(page, '#filter-booking', 'QQQQQQ');
    expect(await page.locator('#filter-booking').inputValue()).toBe('QQQQQQ');
    await waitText(page, '#notification-list .empty', /No notification matches these filters/);
    console.log(
      `[dashboard, 5,000 notifications] burst of 5,000 events: ${burstMs} ms (the page busy ${pageCpuMs} ms of it), all counted on the page after ${shownMs} ms; ` +
        `event → row: median ${median(rowTimes)} ms (${rowTimes.join(', ')}; the POST answered in ${postTimes.join(', ')} ms); ` +
        `input latency while streaming: median ${median(during).toFixed(1)} ms, max ${Math.max(...during).toFixed(1)} ms; ` +
        `after: median ${median(after).toFixed(1)} ms, max ${Math.max(...after).toFixed(1)} ms`,
    );
  });
});
