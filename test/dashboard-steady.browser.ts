/**
 * Under a steady stream of events (one every 100 ms, for as long as it takes), in real chromium
 * (issue 28 §5 "Staleness"): the lists the page reads again after a change (the reservations the
 * Trigger row offers, the per-credential figures and their charts) are refreshed while the events
 * keep coming, not only once they stop: a throttle with a maximum wait, not a debounce that every
 * event restarts.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { haveChromium, POLL_MS, useChromium } from './helpers/chromium.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

const { open } = useChromium();
/** The most events the stream sends: enough for the page to show what it read, well before the end. */
const MAX_EVENTS = 300;

/** Sends an Issue every 100 ms until stopped or MAX_EVENTS are sent; `done` says whether it ran out. */
function steadyEvents(emu: DeliveryHarness) {
  let stopped = false;
  let sent = 0;
  const finished = (async () => {
    while (!stopped && sent < MAX_EVENTS) {
      await emu.event({ type: 'Issue' });
      sent++;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    sent: () => sent,
    ranOut: () => !stopped && sent >= MAX_EVENTS,
    stop: async () => {
      stopped = true;
      await finished;
    },
  };
}

interface Doc {
  document: {
    querySelectorAll(s: string): { length: number };
    querySelector(s: string): { textContent: string | null } | null;
  };
}

/**
 * Waits until `selector` matches at least `n` elements (`pattern` null), or until the first number
 * `pattern` captures in its text is at least `n`.
 */
async function reaches(page: Page, selector: string, pattern: RegExp | null, n: number): Promise<void> {
  await page.waitForFunction(
    ([sel, source, least]) => {
      const { document } = globalThis as unknown as Doc;
      if (source === null) return document.querySelectorAll(sel as string).length >= (least as number);
      const text = document.querySelector(sel as string)?.textContent ?? '';
      return Number(new RegExp(source as string).exec(text)?.[1] ?? 0) >= (least as number);
    },
    [selector, pattern?.source ?? null, n] as const,
    { timeout: WAIT_DEADLINE_MS, polling: POLL_MS },
  );
}

describe.skipIf(!haveChromium)('the dashboard under a steady stream of events', () => {
  it('keeps the bookings (from the stream) and reads the per-credential figures again while the events keep coming', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'c', apiKey: 'k-c', url: r.url });
    const list = await open(emu.url, '#notifications');
    const setup = await open(emu.url, '#setup');
    await list.waitForSelector('#trigger-booking');
    await setup.waitForSelector('#credential-table tr[data-id="c"]');

    const stream = steadyEvents(emu);
    try {
      // The bookings the Trigger row offers (kept from the stream's events) grow during the stream.
      await reaches(list, '#trigger-booking option', null, 5);
      // So do the credential's attempts (GET /delivery-stats) and the chart's caption.
      await reaches(setup, '#credential-table tr[data-id="c"] .stat-attempts', /(\d+)/, 5);
      await reaches(setup, '#charts-panel figure[data-id="c"] figcaption', /^c: (\d+) attempt/, 5);
      // All of it while events were still being sent.
      expect(stream.ranOut()).toBe(false);
      expect(stream.sent()).toBeLessThan(MAX_EVENTS);
    } finally {
      await stream.stop();
    }
  });
});
