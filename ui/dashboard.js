// @ts-check
// The reportbo-emulator dashboard: reads the admin API, listens to GET /__admin/stream (Server-Sent
// Events) and changes nothing except through the admin API, so the page can do nothing curl cannot.
// Plain browser JavaScript modules, no build step, no dependencies, no external files.

import { streamUrl, whenAuthorized } from './admin-token.js';
import { attemptEnded, attemptStarted } from './detail.js';
import { fullTime, h } from './dom.js';
import { renderJournal } from './journal.js';
import { morph } from './morph.js';
import {
  filtersFromQuery,
  patchRows,
  renderNotifications,
  searchAgainSoon,
  searchNow,
} from './notifications.js';
import { focusPending } from './panel.js';
import { renderRetry } from './retry.js';
import { notificationsHash, parseRoute, replace, routeHash } from './route.js';
import { renderSetup } from './setup.js';
import {
  ADMIN,
  act,
  applyEvent,
  CONNECTION,
  created,
  dropNotifications,
  filterQuery,
  forgetNotifications,
  load,
  loadAll,
  loadSoon,
  MAX_JOURNAL,
  post,
  render,
  STREAM_RELOAD_MS,
  say,
  serverPaged,
  setDraw,
  state,
  toNewest,
  unsay,
  upsert,
} from './state.js';
import { loadTriage, renderTriage, triageCount, triageSoon } from './triage.js';
import { renderVerify, verifyCount } from './verify.js';
import { renderVerifyClient, verifyClientCount } from './verify-client.js';

/** @typedef {import('../src/client/types.js').AdvanceResult} AdvanceResult */
/** @typedef {{ id: string, label: string, count: () => number | string, render: () => Node, after?: () => void }} Section */

// Sections of the page, in the order of the tabs.
/** @type {Section[]} */
const SECTIONS = [
  {
    id: 'notifications',
    label: 'Notifications',
    count: () => state.total,
    render: renderNotifications,
    after: patchRows,
  },
  {
    id: 'setup',
    label: 'Credentials & users',
    count: () => state.credentials.length,
    render: renderSetup,
    after: focusPending,
  },
  {
    id: 'journal',
    label: 'GetAccessToken journal',
    count: () => state.journal.length,
    render: renderJournal,
  },
  { id: 'triage', label: 'Failures', count: triageCount, render: renderTriage },
  { id: 'retry', label: 'Bulk retry', count: () => '', render: renderRetry },
  {
    id: 'verify',
    label: 'Receiver conformance',
    count: verifyCount,
    render: renderVerify,
  },
  { id: 'verify-client', label: 'SDK check', count: verifyClientCount, render: renderVerifyClient },
];

// ---- live stream ----------------------------------------------------------------------------

function listen() {
  const source = new EventSource(streamUrl(`${ADMIN}/stream`));
  /** @param {string} kind @param {(data: any) => void} handler */
  const on = (kind, handler) =>
    source.addEventListener(kind, (e) => {
      handler(JSON.parse(/** @type {MessageEvent} */ (e).data));
      render();
    });
  // Sent first on every (re)connection: read everything, so nothing missed while away is lost.
  on('hello', () => {
    state.connected = true;
    unsay(CONNECTION); // the emulator answers again: what could not reach it no longer applies
    forgetNotifications(); // a reset may have happened while disconnected
    loadAll();
    if (currentSection().id === 'triage') triageSoon();
  });
  source.onerror = () => {
    state.connected = false;
    render();
    // The browser reconnects by itself after a dropped connection; it gives up on a refusal (a token
    // set or changed): ask for the token, then listen again.
    if (source.readyState === EventSource.CLOSED)
      setTimeout(() => whenAuthorized(ADMIN).then((ok) => ok && listen()), 1000);
  };

  // The list is kept from the stream: each frame carries the notification as it now stands, so no
  // list is read again for it (a filtered page's count at most every STREAM_RELOAD_MS).
  on('notification_created', ({ notification }) => {
    created(notification);
    searchAgainSoon();
    if (currentSection().id === 'triage') triageSoon();
  });
  // An attempt's request went out: its row and its detail say so until it ends.
  on('attempt_started', ({ notification, attempt }) => {
    upsert(notification);
    attemptStarted(notification.id, attempt);
  });
  on('attempt', ({ notification, attempt }) => {
    upsert(notification);
    attemptEnded(notification.id);
    if (moving && attempt.trigger === 'batch') {
      moving.attempts++;
      sayMoving();
    }
    if (serverPaged()) searchAgainSoon();
    // The failure groups follow the attempts while their tab is open (within 300 ms).
    if (currentSection().id === 'triage') triageSoon();
    if (notification.id === state.selected) load('detail');
    loadSoon('stats', STREAM_RELOAD_MS);
    if (state.outages.length) loadSoon('outages', 300); // an outage may have failed it
  });
  // Cancelled by a resend or a deleted credential (or set to be when its attempt ends).
  on('notification_changed', ({ notification }) => {
    upsert(notification);
    if (serverPaged()) searchAgainSoon();
    if (currentSection().id === 'triage') triageSoon();
    if (notification.id === state.selected) load('detail');
  });
  // Dropped by the retention setting: their rows go (a page of the admin API's is read again for its count).
  on('notifications_dropped', (frame) => {
    dropNotifications(frame);
    if (serverPaged()) searchAgainSoon();
    if (currentSection().id === 'triage') triageSoon();
  });
  on('event', applyEvent);
  // A clock move runs its batches one after another: the status line counts them as they end, and
  // the clock and the figures follow (the figures at most every STREAM_RELOAD_MS).
  on('batch', () => {
    if (moving) {
      moving.batches++;
      sayMoving();
    }
    load('clock');
    loadSoon('stats', STREAM_RELOAD_MS);
  });
  on('clock', () => load('clock', 'stats'));
  on('token', ({ entry }) => {
    state.journal.push(entry);
    if (state.journal.length > MAX_JOURNAL) state.journal.shift();
    if (state.faults.length) loadSoon('faults', 300); // a call may have used a fault up
  });
  on('admin', ({ change }) => {
    if (currentSection().id === 'triage') triageSoon();
    if (change === 'reset') {
      state.selected = null;
      state.journalSelected = null;
      replace(routeHash(currentSection().id));
      forgetNotifications();
      toNewest();
      loadAll();
    } else if (change === 'credential_removed') {
      // Its pending notifications were cancelled (each a notification_changed frame).
      load('credentials', 'stats');
    } else if (change.startsWith('credential')) load('credentials', 'stats');
    else if (change.startsWith('user')) load('users');
    else if (change.startsWith('ca_')) load('trust');
    else if (change.startsWith('fault')) load('faults');
    else if (change.startsWith('outage')) load('outages');
  });
}

// ---- drawing ----------------------------------------------------------------------------------

function currentSection() {
  const { section } = parseRoute(location.hash);
  return SECTIONS.find((s) => s.id === section) ?? /** @type {Section} */ (SECTIONS[0]);
}

/**
 * Shows the view the URL names (route.js): the notification or journal call it opens and the
 * filters it carries, so a reload, Back or a shared link shows the same thing.
 */
function applyRoute() {
  const { section, id, params } = parseRoute(location.hash);
  // A message about a tab's form (its result or refusal) goes when the reader leaves the tab.
  const now = section || 'notifications';
  if (shownSection && shownSection !== now) unsay(shownSection);
  shownSection = now;
  if (section === 'notifications' || section === '') {
    // Compared as the query they make, so a filter being typed ("Smith ") keeps its trailing space.
    if (params.toString() !== filterQuery()) {
      filtersFromQuery(params);
      searchNow();
    }
    if (id !== state.selected) {
      // What an action on the notification shown said goes with it.
      if (state.selected) unsay(`notification:${state.selected}`);
      state.selected = id;
      state.detail = null;
      state.choice.redeliverStatus = '';
      if (id) load('detail');
    }
  } else if (section === 'triage') {
    loadTriage().catch(() => {});
  } else if (section === 'journal' && id !== state.journalSelected) {
    state.journalSelected = id;
    state.journalDetail = null;
    if (id) load('journalDetail');
  }
  render();
}

/** The tab the route showed last (`applyRoute`). */
let shownSection = '';

/** @param {string} id */
const byId = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Draws the page by changing only what differs from what it shows (morph.js): a focused input keeps
 * its caret, opened <details> stay open, and a live update touches only the rows it changed.
 */
function draw() {
  drawClock();
  const live = byId('live');
  live.textContent = state.connected ? 'live' : 'reconnecting…';
  live.className = state.connected ? 'live on' : 'live';
  const section = currentSection();
  morph(
    byId('tabs'),
    h(
      'nav',
      { class: 'tabs', id: 'tabs' },
      SECTIONS.map((s) =>
        h(
          'a',
          {
            href: s.id === 'notifications' ? notificationsHash(state.selected) : `#${s.id}`,
            class: s === section ? 'active' : '',
            id: `tab-${s.id}`,
            'aria-current': s === section ? 'page' : undefined,
          },
          s.label,
          h('span', { class: 'count' }, state.loaded ? s.count() : '…'),
        ),
      ),
    ),
  );
  morph(
    byId('main'),
    h('main', { id: 'main', 'aria-busy': state.loaded ? undefined : 'true' }, section.render()),
  );
  section.after?.();
}

/** Emulator time now: read from the API, moved on locally for the real and compressed clocks. */
function clockNow() {
  const c = state.clock;
  if (!c) return null;
  const rate = c.mode === 'manual' ? 0 : c.mode === 'compressed' ? 3_600_000 / (c.hourMs ?? 60_000) : 1;
  return new Date(Date.parse(c.now) + (Date.now() - state.clockReadAt) * rate).toISOString();
}

function drawClock() {
  const c = state.clock;
  byId('clock-now').textContent = c ? `${fullTime(clockNow())} UTC` : '…';
  byId('clock-mode').textContent = c ? c.mode : '';
  byId('clock-next').textContent = c ? fullTime(c.nextBatchAt) : '…';
  const manual = c?.mode === 'manual';
  for (const id of ['advance-batch', 'advance-hour']) {
    const button = /** @type {HTMLButtonElement} */ (byId(id));
    button.disabled = !manual || state.busy;
    if (c && !manual) button.title = `Only a manual clock moves when told (this one is ${c.mode}).`;
  }
}

// ---- start ----------------------------------------------------------------------------------

/** @param {number} n @param {string} one @param {string} many */
const count = (n, one, many) => `${n} ${n === 1 ? one : many}`;

/** A clock move under way: what the status line says until it answers (the stream's frames count). */
let moving = /** @type {{ what: string, batches: number, attempts: number } | null} */ (null);

function sayMoving() {
  if (!moving) return;
  say(
    `Moving the clock ${moving.what}… ${count(moving.batches, 'batch', 'batches')} run, ${count(moving.attempts, 'attempt', 'attempts')} ended so far`,
  );
}

/**
 * Moves a manual clock: the buttons wait, the status line says how far the batches it crosses have
 * got (each attempt and batch as the stream reports it), and the page answers meanwhile.
 * @param {string} what @param {Record<string, string>} body
 */
function moveClock(what, body) {
  moving = { what, batches: 0, attempts: 0 };
  sayMoving();
  act(
    (r) => `Clock moved to ${fullTime(r.to)}; ${count(r.batches.length, 'batch', 'batches')} run`,
    () => /** @type {Promise<AdvanceResult>} */ (post('/clock/advance', body)),
  ).finally(() => {
    moving = null;
  });
}

byId('advance-batch').addEventListener('click', () => moveClock('to the next batch', { to: 'next-batch' }));
byId('advance-hour').addEventListener('click', () => moveClock('by an hour', { by: 'PT1H' }));
setDraw(draw);
window.addEventListener('hashchange', applyRoute);
applyRoute();
// Real and compressed clocks move by themselves: redraw the time every second.
setInterval(() => {
  if (state.clock && state.clock.mode !== 'manual') drawClock();
}, 1000);
whenAuthorized(ADMIN).then((ok) => ok && listen());
