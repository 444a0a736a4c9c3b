// @ts-check
// The reportbo-emulator dashboard: reads the admin API, listens to GET /__admin/stream (Server-Sent
// Events) and changes nothing except through the admin API, so the page can do nothing curl cannot.
// Plain browser JavaScript modules, no build step, no dependencies, no external files.

import { streamUrl, whenAuthorized } from './admin-token.js';
import { fullTime, h } from './dom.js';
import { renderJournal } from './journal.js';
import { morph } from './morph.js';
import { patchRows, renderNotifications } from './notifications.js';
import { renderSetup } from './setup.js';
import {
  ADMIN,
  act,
  load,
  loadAll,
  loadSoon,
  MAX_JOURNAL,
  post,
  reloadReservationsSoon,
  render,
  setDraw,
  state,
  upsert,
} from './state.js';
import { renderVerify, verifyCount } from './verify.js';

/** @typedef {{ id: string, label: string, count: () => number | string, render: () => Node, after?: () => void }} Section */

// Sections of the page, in the order of the tabs.
/** @type {Section[]} */
const SECTIONS = [
  {
    id: 'notifications',
    label: 'Notifications',
    count: () => state.notifications.size,
    render: renderNotifications,
    after: patchRows,
  },
  { id: 'setup', label: 'Credentials & users', count: () => state.credentials.length, render: renderSetup },
  {
    id: 'journal',
    label: 'GetAccessToken journal',
    count: () => state.journal.length,
    render: renderJournal,
  },
  {
    id: 'verify',
    label: 'Receiver conformance',
    count: verifyCount,
    render: renderVerify,
  },
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
    state.notifications.clear(); // a reset may have happened while disconnected
    loadAll();
  });
  source.onerror = () => {
    state.connected = false;
    render();
    // The browser reconnects by itself after a dropped connection; it gives up on a refusal (a token
    // set or changed): ask for the token, then listen again.
    if (source.readyState === EventSource.CLOSED)
      setTimeout(() => whenAuthorized(ADMIN).then((ok) => ok && listen()), 1000);
  };
  // A text search asks the admin API (bodies are not in the page): asked again as matches may arrive.
  const searchAgain = () => {
    if (state.filters.text.trim()) loadSoon('search', 300);
  };
  on('notification_created', ({ notification }) => {
    upsert(notification);
    searchAgain();
  });
  on('attempt', ({ notification }) => {
    upsert(notification);
    if (notification.id === state.selected) load('detail');
    loadSoon('stats', 500);
    if (state.outages.length) loadSoon('outages', 300); // an outage may have failed it
  });
  on('event', reloadReservationsSoon);
  on('batch', () => load('clock', 'stats'));
  on('clock', () => load('clock', 'stats'));
  on('token', ({ entry }) => {
    state.journal.push(entry);
    if (state.journal.length > MAX_JOURNAL) state.journal.shift();
    if (state.faults.length) loadSoon('faults', 300); // a call may have used a fault up
  });
  on('admin', ({ change }) => {
    if (change === 'reset') {
      state.selected = null;
      state.journalSelected = null;
      state.notifications.clear();
      loadAll();
    } else if (change === 'credential_removed') {
      // Its pending notifications were cancelled: read them (and the one shown) again.
      load('credentials', 'notifications', 'detail', 'stats');
    } else if (change.startsWith('credential')) load('credentials', 'stats');
    else if (change.startsWith('user')) load('users');
    else if (change.startsWith('ca_')) load('trust');
    else if (change.startsWith('fault')) load('faults');
    else if (change.startsWith('outage')) load('outages');
  });
}

// ---- drawing ----------------------------------------------------------------------------------

function currentSection() {
  const id = location.hash.slice(1).split('/')[0];
  return SECTIONS.find((s) => s.id === id) ?? SECTIONS[0];
}

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
          { href: `#${s.id}`, class: s === section ? 'active' : '', id: `tab-${s.id}` },
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

byId('advance-batch').addEventListener('click', () =>
  act(
    (/** @type {any} */ r) =>
      `Clock moved to ${fullTime(r.to)}; ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'} run`,
    () => post('/clock/advance', { to: 'next-batch' }),
  ),
);
byId('advance-hour').addEventListener('click', () =>
  act(
    (/** @type {any} */ r) =>
      `Clock moved to ${fullTime(r.to)}; ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'} run`,
    () => post('/clock/advance', { by: 'PT1H' }),
  ),
);
setDraw(draw);
window.addEventListener('hashchange', render);
// Real and compressed clocks move by themselves: redraw the time every second.
setInterval(() => {
  if (state.clock && state.clock.mode !== 'manual') drawClock();
}, 1000);
whenAuthorized(ADMIN).then((ok) => ok && listen());
