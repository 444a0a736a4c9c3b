/**
 * Searching 20,000 notifications from the dashboard without stalling the emulator (issue 28 §2): the
 * emulator's CLI with 20,000 delivered notifications; Debian's chromium (playwright-core, never a
 * download) types a surname into the dashboard's search box at 250 ms a key while this process posts
 * an event every 50 ms. Figures: the searches the page sent and the bytes they answered, the time from
 * the last key to the rows shown, POST /__admin/events latency idle and during the search, the
 * emulator's CPU for the search, and then, quiet, its CPU per scan: one search of each of
 * SCANS other surnames (issue 41 §6).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { postIssueEvents, probeLatency, waitSettled } from '../lib/events.js';
import { json } from '../lib/http.js';
import { stopAll } from '../lib/proc.js';
import { startReceiver } from '../lib/receiver.js';
import { cpuTimeMs } from '../lib/rss.js';
import { startEmulator } from '../lib/servers.js';
import { envNumber, fmt, median, percentile, type Verdict, verdictTable } from '../lib/stats.js';
import type { BenchSuite } from '../types.js';

const CHROMIUM = '/usr/bin/chromium';
const KEY_DELAY_MS = 250;
const PROBE_EVERY_MS = 50;
const MAX_SEARCHES = 2;
const RESULT_TARGET_MS = 1_000;
const LATENCY_FACTOR = 2;
/** Searches timed one by one after the typing (other surnames, spread over the list). */
const SCANS = 8;
const SCAN_CPU_TARGET_MS = 150;

/** POSTs an Issue event every PROBE_EVERY_MS until stopped; answers each call's latency in ms. */
const probeEvents = (url: string) =>
  probeLatency(
    (agent) => json(`${url}/__admin/events`, { body: { type: 'Issue' }, agent, timeoutMs: 60_000 }),
    PROBE_EVERY_MS,
  );

/** Installed in the page before typing: the time of each input event and of each change of the list's title. */
const MARK_STEPS = `(() => {
  const marks = { inputs: [], titles: [] };
  globalThis.benchMarks = marks;
  document.addEventListener('input', () => marks.inputs.push(performance.now()), true);
  new MutationObserver(() => {
    const text = document.querySelector('#notification-list h2')?.textContent ?? '';
    if (text !== marks.titles.at(-1)?.text) marks.titles.push({ at: performance.now(), text });
  }).observe(document.body, { subtree: true, childList: true, characterData: true });
})()`;

/** The steps from the last key to the rows shown, in ms (page clock). */
interface Steps {
  /** Last key's input event → the search sent (the page's pause). */
  pause: number;
  /** Sent → first byte of the answer (the emulator's scan, queueing included). */
  firstByte: number;
  body: number;
  /** Answer read → the title counting its matches. */
  draw: number;
  total: number;
  /** The longest time between two keys' input events: past the page's 300 ms pause, a search goes out. */
  longestKeyGap: number;
}

/** Read in the page after the result: the steps of the search of `term`. */
const readSteps = (term: string) => `(() => {
  const { inputs, titles } = globalThis.benchMarks;
  const entries = performance.getEntriesByType('resource');
  const search = entries.find((e) => new URL(e.name).searchParams.get('q') === ${JSON.stringify(term)});
  const lastInput = inputs.at(-1);
  const shown = search && titles.find((t) => t.at >= search.responseEnd && / matches$/.test(t.text))?.at;
  if (shown === undefined) return null;
  return {
    pause: search.startTime - lastInput,
    firstByte: search.responseStart - search.startTime,
    body: search.responseEnd - search.responseStart,
    draw: shown - search.responseEnd,
    total: shown - lastInput,
    longestKeyGap: Math.max(0, ...inputs.slice(1).map((t, i) => t - inputs[i])),
  };
})()`;

const suite: BenchSuite = {
  name: 'search',
  title: 'Searching 20,000 notifications from the dashboard while events keep coming',
  async run(log) {
    if (!existsSync(CHROMIUM)) return `Skipped: ${CHROMIUM} not found (apt-get install -y chromium).`;
    const count = envNumber('BENCH_SEARCH_NOTIFICATIONS', 20_000, 2_000);
    const profile = await mkdtemp(join(tmpdir(), 'reportbo-bench-chromium-'));
    const browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-first-run',
        '--disable-background-networking',
      ],
      viewport: { width: 1400, height: 900 },
    });
    try {
      const receiver = await startReceiver();
      const emu = await startEmulator({
        args: ['--allow-http', '--clock', 'manual'],
        config: { credentials: [{ id: 'bench', apiKey: 'bench-key', url: `${receiver.url}/hook` }] },
      });
      const posted = await postIssueEvents(emu.url, count, 16, (done) => log(`${fmt(done)} events posted`));
      if (!(await waitSettled(emu.url))) throw new Error('deliveries did not settle within 300 s');
      // A surname from the middle of the list: the search has to look through the newer half.
      const middle = posted.ids[Math.floor(posted.ids.length / 2)]!;
      const { body } = await json<{ body: { Pax: Array<{ LastName: string }> } }>(
        `${emu.url}/__admin/notifications/${middle}`,
      );
      const surname = body.Pax[0]!.LastName;
      log(`${fmt(posted.ids.length)} notifications; typing "${surname}"`);

      const page = await browser.newPage();
      await page.goto(`${emu.url}/__admin/ui`);
      await page.waitForSelector('#live.on');
      await page.waitForSelector('#notification-table tbody tr');

      const idle = probeEvents(emu.url);
      await new Promise((r) => setTimeout(r, 3_000));
      const idleLatencies = await idle.stop();

      const searches: Array<{ url: string; bytes: number }> = [];
      page.on('requestfinished', async (req) => {
        const q = new URL(req.url()).searchParams.get('q');
        if (q === null || !surname.startsWith(q)) return; // a search of the typing, not a later one
        const sizes = await req.sizes().catch(() => null);
        searches.push({ url: req.url(), bytes: sizes?.responseBodySize ?? 0 });
      });
      let sent = 0;
      page.on('request', (req) => {
        // The searches of the typing.
        const q = new URL(req.url()).searchParams.get('q');
        if (q && surname.startsWith(q)) sent++;
      });
      // The steps of the result, each on the page's own clock: the last key's input event, the search
      // request (sent, first byte, last byte) and each change of the list's title.
      await page.evaluate(MARK_STEPS);
      // The emulator's CPU while the search of the whole surname was under way: on a quiet machine
      // that is its wall time (one thread), whatever else the machine runs now.
      const cpuAt: { sent?: number; answered?: number } = {};
      page.on('request', (req) => {
        if (new URL(req.url()).searchParams.get('q') === surname) cpuAt.sent ??= cpuTimeMs(emu.proc.pid);
      });
      page.on('response', (res) => {
        if (new URL(res.url()).searchParams.get('q') === surname) cpuAt.answered ??= cpuTimeMs(emu.proc.pid);
      });
      const cpuBefore = cpuTimeMs(emu.proc.pid) ?? 0;
      const during = probeEvents(emu.url);
      await page.click('#filter-text');
      const answered = page.waitForResponse((res) => new URL(res.url()).searchParams.get('q') === surname, {
        timeout: 120_000,
      });
      await page.keyboard.type(surname, { delay: KEY_DELAY_MS });
      const lastKey = performance.now();
      await answered;
      const sentWhileTyping = sent; // later ones: new notifications of the probe may match
      // The result is shown when the list's title counts the matches (not "Searching…") after the
      // answer to the whole surname.
      let steps: Steps | null = null;
      for (const end = performance.now() + 120_000; !steps && performance.now() < end; ) {
        steps = (await page.evaluate(readSteps(surname))) as Steps | null;
        if (!steps) await new Promise((r) => setTimeout(r, 20));
      }
      if (!steps) throw new Error('the result of the search was not shown within 120 s');
      const keyupMs = performance.now() - lastKey;
      const serverCpu = (cpuAt.answered ?? 0) - (cpuAt.sent ?? 0);
      const resultMs = steps.total;
      log(
        `steps (page clock, ms): ${JSON.stringify(steps)}; emulator CPU from the search sent to its answer ${fmt(serverCpu)} ms; ${fmt(keyupMs)} ms from the last key's release`,
      );
      const searchLatencies = await during.stop();
      const cpuSearch = (cpuTimeMs(emu.proc.pid) ?? 0) - cpuBefore;
      const shown = (await page.locator('#notification-list h2').textContent()) ?? '';
      await page.close();
      // CPU per scan, quiet: nothing else asks the emulator anything meanwhile. The dashboard's own
      // query (a page of 100 with total and nextCursor), one surname each, spread over the list.
      const scanCpu: number[] = [];
      for (let i = 0; i < SCANS; i++) {
        const id = posted.ids[Math.floor(((i + 0.5) * posted.ids.length) / SCANS)]!;
        const other = (
          await json<{ body: { Pax: Array<{ LastName: string }> } }>(`${emu.url}/__admin/notifications/${id}`)
        ).body.Pax[0]!.LastName;
        const before = cpuTimeMs(emu.proc.pid) ?? 0;
        await json(`${emu.url}/__admin/notifications?q=${encodeURIComponent(other)}&limit=100`);
        scanCpu.push((cpuTimeMs(emu.proc.pid) ?? 0) - before);
      }
      log(`CPU per scan: ${scanCpu.map((ms) => fmt(ms)).join(', ')} ms`);
      await emu.stop();
      await receiver.stop();

      const idleMedian = median(idleLatencies);
      const duringMedian = median(searchLatencies);
      const bytes = searches.reduce((sum, s) => sum + s.bytes, 0);
      const verdicts: Verdict[] = [
        {
          target: `typing a surname sends ≤ ${MAX_SEARCHES} searches`,
          figure: `${sentWhileTyping} sent (${fmt(bytes / 1024, 1)} KiB answered in all) while typing ${surname.length} keys at ${KEY_DELAY_MS} ms (the longest gap between two: ${fmt(steps.longestKeyGap)} ms)`,
          met: sentWhileTyping <= MAX_SEARCHES,
        },
        {
          target: `result shown ≤ ${fmt(RESULT_TARGET_MS)} ms after the last key (quiet machine)`,
          figure: `${fmt(resultMs)} ms ("${shown}") from the last key's input: pause ${fmt(steps.pause)}, answer ${fmt(steps.firstByte + steps.body)} (emulator CPU ${fmt(serverCpu)}), drawn ${fmt(steps.draw)}`,
          met: resultMs <= RESULT_TARGET_MS,
        },
        {
          target: `POST /__admin/events latency during the search ≤ ${LATENCY_FACTOR}× idle`,
          figure: `median ${fmt(duringMedian, 1)} ms (p95 ${fmt(percentile(searchLatencies, 95), 1)}, ${searchLatencies.length} calls) vs idle median ${fmt(idleMedian, 1)} ms (p95 ${fmt(percentile(idleLatencies, 95), 1)}, ${idleLatencies.length} calls)`,
          met: duringMedian <= LATENCY_FACTOR * idleMedian,
        },
        {
          target: `one search ≤ ${SCAN_CPU_TARGET_MS} ms of emulator CPU (utime + stime)`,
          figure: `median ${fmt(median(scanCpu))} ms, max ${fmt(Math.max(...scanCpu))} ms over ${SCANS} surnames (${scanCpu.map((ms) => fmt(ms)).join(', ')})`,
          met: median(scanCpu) <= SCAN_CPU_TARGET_MS,
        },
      ];
      return [
        `${fmt(posted.ids.length)} delivered notifications, one credential; chromium types the surname of`,
        `${middle} at ${KEY_DELAY_MS} ms a key into the dashboard's search box while this process posts an`,
        `Issue event every ${PROBE_EVERY_MS} ms (the idle figures: the same probe for 3 s before typing). The`,
        `emulator used ${fmt(cpuSearch)} ms of CPU (utime + stime) from the first key to the rows shown,`,
        'events and deliveries of the probe included.',
        '',
        verdictTable(verdicts),
      ].join('\n');
    } finally {
      await browser.close();
      await rm(profile, { recursive: true, force: true });
      await stopAll();
    }
  },
};
export default suite;
