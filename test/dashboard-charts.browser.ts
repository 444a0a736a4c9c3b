/**
 * Delivery over time in real chromium (issue 28 §4, decision 0105): real deliveries to three
 * receivers (one answers 200, one 500, one 200 slowly) and the charts' figures (their words, their
 * table, their bars) checked against the attempts the emulator recorded and the requests the
 * receivers got; the charts follow new attempts live, fit the 1400 px layout, and axe-core finds
 * nothing serious or critical.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Attempt } from '../src/client/types.js';
import { axeFindings } from './helpers/axe.js';
import { haveChromium, useChromium, waitText } from './helpers/chromium.js';
import { type DeliveryHarness, deliveryEmulator } from './helpers/delivery.js';
import { behave, receiver } from './helpers/receiver.js';

const { open } = useChromium();
const SLOW_MS = 400;

/** Every attempt the emulator recorded for credential `id`. */
async function attemptsOf(emu: DeliveryHarness, id: string): Promise<Attempt[]> {
  const { notifications } = await emu.client.listNotifications({ credentialId: id });
  const details = await Promise.all(notifications.map((n) => emu.notification(n.id)));
  return details.flatMap((n) => n.attempts);
}

/** What the figures table of credential `id` shows, row by row (only buckets with attempts). */
async function tableOf(page: Page, id: string) {
  const figure = page.locator(`#charts-panel figure[data-id="${id}"]`);
  const rows = await figure.locator('.chart-figures tbody tr').evaluateAll((trs) =>
    trs.map((tr) => ({
      from: tr.getAttribute('data-from') ?? '',
      cells: [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''),
    })),
  );
  return rows.map(({ from, cells }) => ({
    from,
    attempts: Number(cells[1]),
    successful: Number(cells[2]),
    answered: Number(cells[4]),
    maxMs: cells[6] === '—' ? null : Number(cells[6]),
  }));
}

/** The attempts grouped in the page's buckets: what the table must show. */
function expectedBuckets(attempts: Attempt[], from: number, bucketMs: number) {
  const byStart = new Map<
    string,
    { attempts: number; successful: number; answered: number; maxMs: number | null }
  >();
  for (const a of attempts) {
    const start = from + Math.floor((Date.parse(a.startedAtWall) - from) / bucketMs) * bucketMs;
    const key = new Date(start).toISOString();
    const b = byStart.get(key) ?? { attempts: 0, successful: 0, answered: 0, maxMs: null };
    b.attempts++;
    if (a.outcome === 'http_status' && a.statusCode === 200) b.successful++;
    if (a.outcome === 'http_status') {
      b.answered++;
      b.maxMs = Math.max(b.maxMs ?? 0, a.durationMs);
    }
    byStart.set(key, b);
  }
  return [...byStart.entries()]
    .sort(([x], [y]) => x.localeCompare(y))
    .map(([key, b]) => ({ from: key, ...b }));
}

describe.skipIf(!haveChromium)('delivery over time in chromium', () => {
  it("charts each credential's success rate and latency from the attempts that happened", async () => {
    const ok = await receiver();
    const failing = await receiver({ defaultBehaviour: behave.status(500) });
    const slow = await receiver({ defaultBehaviour: behave.slow(SLOW_MS) });
    const emu = await deliveryEmulator({ allowHttp: true, seed: 42 });
    await emu.credential({ id: 'ok', apiKey: 'k-ok', url: ok.url });
    await emu.credential({ id: 'failing', apiKey: 'k-failing', url: failing.url });
    await emu.credential({ id: 'slow', apiKey: 'k-slow', url: slow.url });
    await emu.credential({ id: 'idle', apiKey: 'k-idle', url: ok.url, filters: { pcc: ['NONE'] } });
    for (let i = 0; i < 3; i++) await emu.event({ type: 'Issue' });
    await emu.settle();
    await emu.advance({ to: 'next-batch' }); // the failing ones are tried again (and fail again)
    await emu.settle();

    const page = await open(emu.url, '#setup');
    await page.waitForSelector('#charts-panel figure[data-id="slow"]');
    const panel = page.locator('#charts-panel');
    const from = Date.parse((await panel.getAttribute('data-from')) ?? '');
    const bucketMs = Number(await panel.getAttribute('data-bucket-ms'));
    expect(bucketMs).toBeGreaterThan(0);

    const receivers = { ok, failing, slow };
    for (const [id, r] of Object.entries(receivers)) {
      const attempts = await attemptsOf(emu, id);
      // Every attempt reached its receiver: the figures are about what happened on the wire.
      expect(attempts).toHaveLength(r.requests.length);
      const answered = attempts.filter((a) => a.outcome === 'http_status');
      const successful = answered.filter((a) => a.statusCode === 200);
      const longest = Math.max(...answered.map((a) => a.durationMs));
      const figure = panel.locator(`figure[data-id="${id}"]`);
      const caption = (await figure.locator('figcaption').textContent()) ?? '';
      const rate = `${Math.round((successful.length / attempts.length) * 1000) / 10}%`;
      expect(caption).toContain(
        `${id}: ${attempts.length} attempts, ${successful.length} answered 200 (${rate}); answers took `,
      );
      expect(caption).toMatch(new RegExp(`, ${longest} ms at most\\.$`));
      // The charts' own names say the same figures (a screen reader reads them).
      expect(await figure.locator('svg[id^="chart-success"] > title').textContent()).toBe(
        `Success rate of ${id}: ${successful.length} of ${attempts.length} attempts answered 200 (${rate})`,
      );
      expect(await figure.locator('svg[id^="chart-latency"] > title').textContent()).toMatch(
        new RegExp(
          `^Latency of ${id}: ${answered.length} answered, \\d+ ms on average, ${longest} ms at most$`,
        ),
      );
      // Bucket by bucket, the table holds the recorded attempts, each in the bucket of its wall-clock start.
      await figure.locator('.chart-figures summary').click();
      expect(await tableOf(page, id)).toEqual(expectedBuckets(attempts, from, bucketMs));
      // A bar per bucket with attempts: solid for the 200s, hatched for the rest, none where none failed.
      const buckets = expectedBuckets(attempts, from, bucketMs);
      expect(await figure.locator('rect.ok').count()).toBe(buckets.filter((b) => b.successful > 0).length);
      expect(await figure.locator('rect.fail').count()).toBe(
        buckets.filter((b) => b.successful < b.attempts).length,
      );
      expect(await figure.locator('rect.mean').count()).toBe(buckets.filter((b) => b.answered > 0).length);
    }
    // The failing receiver never got a 200 (the latency figures were checked above against the
    // durations the emulator recorded, whatever the machine made of them).
    expect(
      await waitText(page, '#charts-panel figure[data-id="failing"] figcaption', /answered 200/),
    ).toMatch(/, 0 answered 200 \(0%\);/);
    expect(await panel.locator('figure[data-id="idle"] figcaption').textContent()).toBe(
      'idle: no attempt yet.',
    );

    // A new delivery shows without a reload.
    const before = (await attemptsOf(emu, 'ok')).length;
    await emu.event({ type: 'Issue' });
    await emu.settle();
    await waitText(
      page,
      '#charts-panel figure[data-id="ok"] figcaption',
      new RegExp(`^ok: ${before + 1} attempts, `),
    );

    // Readable at 1400 px: the panel is not clipped, the charts are drawn at their size.
    const fits = await panel.evaluate((el) => el.scrollWidth <= el.clientWidth);
    expect(fits).toBe(true);
    const box = await panel.locator('figure[data-id="ok"] svg[id^="chart-success"]').boundingBox();
    expect(box?.width).toBeGreaterThanOrEqual(300);

    expect(await axeFindings(page)).toEqual([]);
  });
});
