/**
 * Debian's chromium driven by playwright-core (never a browser download), for the dashboard's
 * browser tests: one persistent context per test file, one page kept from test to test (blank, see
 * `park`) and the others closed after each test, and every script or console error of a page
 * failing the test. Without a chromium (below) the tests are skipped with how to install it
 * (REPORTBO_BROWSER_TESTS=required makes that a failure).
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { loadNote, WAIT_DEADLINE_MS } from './deadline.js';

/**
 * Debian's chromium-headless-shell when installed, else its chromium. The shell is the same
 * chromium (one Debian source, one version) without the browser's own window and tab machinery,
 * which `--headless` still runs: measured on 2026-11-29, the five browser files took about a fifth
 * less CPU with the shell (decision 0270).
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const CHROMIUM = existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
export const haveChromium = existsSync(CHROMIUM);
const missing = `${CHROMIUM} not found. Install it with: apt-get install -y chromium-headless-shell (or chromium)`;

/** What the page functions use of the browser (the tests are typed without the DOM library). */
export interface BrowserGlobals {
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): { length: number };
    activeElement: { id: string; selectionStart: number | null; value?: string } | null;
  };
  requestAnimationFrame(callback: (time: number) => void): number;
}

const VIEWPORT = { width: 1400, height: 900 };

/**
 * The chromium of this worker: one per test file, shared by every `useChromium()` of the file (a
 * file such as test/dashboard-panels.test.ts gathers several suites; a launch costs ~3 s of CPU).
 * All before-all hooks of a file run before its first test and all after-all hooks after its last,
 * so the count of users drops to 0 only once the file is done.
 */
let shared: { launched: Promise<{ context: BrowserContext; profile: string }>; users: number } | undefined;

async function launch(): Promise<{ context: BrowserContext; profile: string }> {
  const profile = await mkdtemp(join(tmpdir(), 'reportbo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    viewport: VIEWPORT,
    timezoneId: 'UTC',
    locale: 'en-US',
    acceptDownloads: true,
  });
  // Every wait of a page (waitForFunction, locators, navigation) ends on its event; playwright's own
  // 30 s default only bounds one that never would, and a loaded machine passes it.
  context.setDefaultTimeout(WAIT_DEADLINE_MS);
  await Promise.all(context.pages().map((p) => p.close()));
  return { context, profile };
}

/** The page `park` kept for the next `newPage()` of the file. */
let spare: Page | undefined;

/** Events the tests and `newPage` listen to on a page; `park` removes their listeners. */
const PAGE_EVENTS = ['pageerror', 'console', 'dialog', 'download', 'request', 'response', 'popup'];

/**
 * After a test: closes every page of the context but one, which is left blank for the next test
 * (its listeners, routes and viewport back to a new page's). Opening a page costs chromium far
 * more than loading one: measured alone on 2026-11-26, the five browser files took 226 s of
 * chromium CPU with a new page per test and 124 s with the page kept (decision 0160).
 */
async function park(context: BrowserContext): Promise<void> {
  const pages = context.pages();
  const keep = pages[0];
  await Promise.all(pages.slice(1).map((p) => p.close()));
  if (!keep) return;
  try {
    for (const event of PAGE_EVENTS) keep.removeAllListeners(event);
    await keep.unrouteAll({ behavior: 'ignoreErrors' });
    await keep.goto('about:blank');
    await keep.setViewportSize(VIEWPORT);
    spare = keep;
  } catch {
    // A page that cannot be reset (crashed, or held by a dialog) is closed as before; the next
    // test opens a new one.
    await keep.close().catch(() => undefined);
  }
}

async function acquire(): Promise<BrowserContext> {
  shared ??= { launched: launch(), users: 0 };
  shared.users++;
  return (await shared.launched).context;
}

async function release(): Promise<void> {
  if (!shared || --shared.users > 0) return;
  const { launched } = shared;
  shared = undefined;
  spare = undefined;
  const { context, profile } = await launched;
  await context.close();
  await rm(profile, { recursive: true, force: true });
}

/** Registers the file's browser hooks; `browser()` is the context, `pageErrors` what pages reported. */
export function useChromium() {
  if (!haveChromium && process.env.REPORTBO_BROWSER_TESTS === 'required')
    throw new Error(`dashboard browser tests required: ${missing}`);
  if (!haveChromium) console.warn(`dashboard browser tests skipped: ${missing}`);
  let context: BrowserContext | undefined;
  const pageErrors: string[] = [];
  // Runs before the emulators close (after-hooks run last-registered first): a page left on the
  // dashboard would log its stream's end and its reconnection attempts.
  afterEach(async () => {
    if (context) await park(context);
    expect(pageErrors.splice(0)).toEqual([]);
  });
  beforeAll(async () => {
    if (haveChromium) context = await acquire();
  });
  afterAll(async () => {
    if (!context) return;
    context = undefined;
    await release();
  });

  /** A blank page (the one kept from the last test, or a new one) whose errors fail the test. */
  async function newPage(): Promise<Page> {
    const kept = spare;
    spare = undefined;
    const page = kept && !kept.isClosed() ? kept : await context!.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') pageErrors.push(m.text());
    });
    return page;
  }

  /**
   * Opens the dashboard at `hash` and waits until its live stream is connected: in a new page, or
   * loaded afresh in `reuse` (a test that opens several views in turn; a page left open keeps
   * drawing its stream's events, and opening one costs chromium more than loading one, see `park`).
   */
  async function open(url: string, hash = '', reuse?: Page): Promise<Page> {
    const page = reuse ?? (await newPage());
    if (reuse) await reuse.goto('about:blank');
    await page.goto(`${url}/__admin/ui${hash}`);
    await page.waitForSelector('#live.on');
    return page;
  }
  return { browser: () => context!, newPage, open, pageErrors };
}

/**
 * How often a page function waited on is tried: playwright's default is every animation frame, which
 * keeps chromium producing frames as long as a test waits (0.1–0.27 CPU-seconds per second waited
 * on a static page, against 0.01–0.02 every 100 ms; measured 2026-11-26). Pass it to every
 * `waitForFunction` (`{ polling: POLL_MS }`).
 */
export const POLL_MS = 100;

/**
 * Waits until the text of the element `selector` matches `pattern`, and answers it; `timeoutMs`
 * (the context's default, WAIT_DEADLINE_MS, when absent) for what takes longer still. When it never
 * does, the error says what the element read at the end (or that there was none).
 */
export async function waitText(
  page: Page,
  selector: string,
  pattern: RegExp,
  timeoutMs?: number,
): Promise<string> {
  try {
    await page.waitForFunction(
      ([sel, source, flags]) =>
        new RegExp(source!, flags).test(
          (globalThis as unknown as BrowserGlobals).document.querySelector(sel!)?.textContent ?? '',
        ),
      [selector, pattern.source, pattern.flags] as const,
      { polling: POLL_MS, ...(timeoutMs === undefined ? {} : { timeout: timeoutMs }) },
    );
  } catch (err) {
    const now = await page
      .evaluate(
        (sel) => (globalThis as unknown as BrowserGlobals).document.querySelector(sel)?.textContent ?? null,
        selector,
      )
      .catch(() => null);
    const read = now === null ? 'no such element' : `it reads ${JSON.stringify(now.slice(0, 2_000))}`;
    throw new Error(
      `${selector} never matched ${pattern}: ${read} (${(err as Error).message.split('\n')[0]}; ${loadNote()})`,
    );
  }
  return (await page.locator(selector).textContent()) ?? '';
}

/** Waits until `selector` matches exactly `count` elements. */
export async function waitCount(page: Page, selector: string, count: number): Promise<void> {
  await page.waitForFunction(
    ([sel, n]) =>
      (globalThis as unknown as BrowserGlobals).document.querySelectorAll(sel as string).length === n,
    [selector, count] as const,
    { polling: POLL_MS },
  );
}
