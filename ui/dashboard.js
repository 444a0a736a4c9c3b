// The reportbo-emulator dashboard: reads the admin API, listens to GET /__admin/stream (Server-Sent
// Events) and changes nothing except through the admin API, so the page can do nothing curl cannot.
// Plain browser JavaScript modules, no build step, no dependencies, no external files.

import { streamUrl, whenAuthorized } from './admin-token.js';
import { fullTime, h } from './dom.js';
import { renderNotifications } from './notifications.js';
import {
  ADMIN,
  act,
  load,
  loadAll,
  MAX_JOURNAL,
  post,
  reloadReservationsSoon,
  render,
  setDraw,
  state,
  upsert,
} from './state.js';
import { renderJournal, renderSetup } from './tables.js';
import { renderVerify, verifyCount } from './verify.js';

// Sections of the page, in the order of the tabs.
const SECTIONS = [
  {
    id: 'notifications',
    label: 'Notifications',
    count: () => state.notifications.size,
    render: renderNotifications,
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
  const on = (kind, handler) =>
    source.addEventListener(kind, (e) => {
      handler(JSON.parse(e.data));
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
  on('notification_created', ({ notification }) => upsert(notification));
  on('attempt', ({ notification }) => {
    upsert(notification);
    if (notification.id === state.selected) load('detail');
  });
  on('event', reloadReservationsSoon);
  on('batch', () => load('clock'));
  on('clock', () => load('clock'));
  on('token', ({ entry }) => {
    state.journal.push(entry);
    if (state.journal.length > MAX_JOURNAL) state.journal.shift();
  });
  on('admin', ({ change }) => {
    if (change === 'reset') {
      state.selected = null;
      state.notifications.clear();
      loadAll();
    } else if (change === 'credential_removed') {
      // Its pending notifications were cancelled: read them (and the one shown) again.
      load('credentials', 'notifications', 'detail');
    } else if (change.startsWith('credential')) load('credentials');
    else if (change.startsWith('user')) load('users');
  });
  on('resync', loadAll);
}

// ---- drawing ----------------------------------------------------------------------------------

function currentSection() {
  const id = location.hash.slice(1).split('/')[0];
  return SECTIONS.find((s) => s.id === id) ?? SECTIONS[0];
}

function draw() {
  drawClock();
  const live = document.getElementById('live');
  live.textContent = state.connected ? 'live' : 'reconnecting…';
  live.className = state.connected ? 'live on' : 'live';
  const section = currentSection();
  document
    .getElementById('tabs')
    .replaceChildren(
      ...SECTIONS.map((s) =>
        h(
          'a',
          { href: `#${s.id}`, class: s === section ? 'active' : '', id: `tab-${s.id}` },
          s.label,
          h('span', { class: 'count' }, s.count()),
        ),
      ),
    );
  // Keep the focused filter input (and its caret) across redraws.
  const focused = document.activeElement?.id;
  const caret = document.activeElement?.selectionStart;
  document.getElementById('main').replaceChildren(section.render());
  if (focused) {
    const el = document.getElementById(focused);
    if (el && el !== document.activeElement) {
      el.focus();
      // Checkboxes and the like have no caret (selectionStart null; setSelectionRange would throw).
      if (typeof caret === 'number' && el.setSelectionRange) el.setSelectionRange(caret, caret);
    }
  }
}

/** Emulator time now: read from the API, moved on locally for the real and compressed clocks. */
function clockNow() {
  const c = state.clock;
  if (!c) return null;
  const rate = c.mode === 'manual' ? 0 : c.mode === 'compressed' ? 3_600_000 / c.hourMs : 1;
  return new Date(Date.parse(c.now) + (Date.now() - state.clockReadAt) * rate).toISOString();
}

function drawClock() {
  const c = state.clock;
  document.getElementById('clock-now').textContent = c ? `${fullTime(clockNow())} UTC` : '…';
  document.getElementById('clock-mode').textContent = c ? c.mode : '';
  document.getElementById('clock-next').textContent = c ? fullTime(c.nextBatchAt) : '…';
  const manual = c?.mode === 'manual';
  for (const id of ['advance-batch', 'advance-hour']) {
    const button = document.getElementById(id);
    button.disabled = !manual || state.busy;
    if (c && !manual) button.title = `Only a manual clock moves when told (this one is ${c.mode}).`;
  }
}

// ---- start ----------------------------------------------------------------------------------

document.getElementById('advance-batch').addEventListener('click', () =>
  act(
    (r) =>
      `Clock moved to ${fullTime(r.to)}; ${r.batches.length} batch${r.batches.length === 1 ? '' : 'es'} run`,
    () => post('/clock/advance', { to: 'next-batch' }),
  ),
);
document.getElementById('advance-hour').addEventListener('click', () =>
  act(
    (r) =>
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
