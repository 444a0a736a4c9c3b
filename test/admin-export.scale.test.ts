import { describe, expect, it } from 'vitest';
import { curl } from '../bench/lib/curl.js';
import { CLOCK_START } from './helpers/clock.js';
import { serve } from './helpers/data-dir.js';
import { watchLoop } from './helpers/loop-watch.js';
import { addNotifications } from './helpers/many-notifications.js';

// Issue 43 §1: health stays answered while an export of 100,000 notifications (the default
// retention) runs, and the export is whole. The figures (event loop delay, health latency) are
// printed; their bars are `npm run bench -- admin-scale`'s, since a busy machine stretches any
// duration. The file is read by curl, another process, so the reading does not load this loop.
const COUNT = 100_000;
/** Far above the minutes a slow machine takes to write ~1 GB; the wait ends with curl. */
const EXPORT_DEADLINE_MS = 900_000;

describe('an export of 100,000 notifications leaves health answered (issue 43 §1)', () => {
  it.each(['ndjson', 'har'])(
    '%s: the export is whole and health is answered while it runs',
    async (format) => {
      const r = await serve({ clock: 'manual', clockStart: CLOCK_START, notificationRetention: 0 });
      addNotifications(r.emulator, COUNT, { startMs: Date.parse(CLOCK_START), resendEvery: 10 });
      const watch = watchLoop(r.url, 50);
      const t0 = performance.now();
      const got = await curl(`${r.url}/__admin/notifications/export?format=${format}`);
      const seconds = (performance.now() - t0) / 1000;
      const figures = await watch.stop();
      console.log(
        `${format} export of ${COUNT}: ${(got.bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s; ${JSON.stringify(figures)}`,
      );
      expect(got.status).toBe(200);
      expect(got.bytes).toBeGreaterThan(COUNT * 1000);
      expect(figures.healthCalls).toBeGreaterThan(0);
    },
    EXPORT_DEADLINE_MS,
  );
});
