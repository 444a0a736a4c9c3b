// @ts-check
// The notifications view: trigger bar, find-and-export bar, the list, and one notification's detail.

import { renderDetail } from './detail.js';
import { h, isOk, outcomeText, pill, select, shortTime } from './dom.js';
import { act, download, load, loadSoon, MAX_ATTEMPTS, MAX_ROWS, post, render, state } from './state.js';

/** @typedef {import('./state.js').Summary} Summary */

/** Bookings offered for a Void or an Exchange, newest first (others: the admin API, by BookingID). */
const MAX_TRIGGER_OPTIONS = 50;

/** The status class of a notification's last attempt, as `statusClass` of the admin API names it. @param {Summary} n */
function statusClass(n) {
  const last = n.lastAttempt;
  if (!last) return 'none';
  if (last.statusCode === undefined || last.statusCode === null) return 'network';
  return `${Math.floor(last.statusCode / 100)}xx`;
}

function visibleNotifications() {
  const f = state.filters;
  const needle = f.booking.trim().toUpperCase();
  const text = f.text.trim();
  const rows = [];
  const all = [...state.notifications.values()];
  for (let i = all.length - 1; i >= 0; i--) {
    const n = /** @type {Summary} */ (all[i]);
    if (f.state && n.state !== f.state) continue;
    if (f.credential && n.credentialId !== f.credential) continue;
    if (f.bookingStatus && n.bookingStatus !== f.bookingStatus) continue;
    if (f.statusClass && statusClass(n) !== f.statusClass) continue;
    if (f.attempts && n.attemptCount !== Number(f.attempts)) continue;
    if (needle && !n.bookingNumber.includes(needle) && !String(n.bookingId).includes(needle)) continue;
    if (text && !state.textMatches?.has(n.id)) continue;
    rows.push(n);
  }
  return rows;
}

/** The admin API query of the filters shown, for the exports (the same notifications as the list). */
export function filterQuery() {
  const f = state.filters;
  const q = new URLSearchParams();
  if (f.state) q.set('state', f.state);
  if (f.credential) q.set('credentialId', f.credential);
  if (f.bookingStatus) q.set('bookingStatus', f.bookingStatus);
  if (f.statusClass) q.set('statusClass', f.statusClass);
  if (f.attempts) q.set('attempts', f.attempts);
  if (f.booking.trim()) q.set('booking', f.booking.trim());
  if (f.text.trim()) q.set('q', f.text.trim());
  return q.toString();
}

// ---- rows ---------------------------------------------------------------------------------------
// The list's <tbody> is kept across redraws (data-keep) and its rows are updated here: a row is
// built again only when what it shows changed, so 5,000 notifications streaming in touch few nodes.

/** @type {Map<string, { sig: string, el: HTMLElement }>} */
const rowCache = new Map();

/** @param {Summary} n */
function nextAttemptAt(n) {
  if (n.state !== 'pending') return '';
  if (n.inFlight) return 'now';
  return state.clock ? shortTime(state.clock.nextBatchAt) : '';
}

/** @param {Summary} n */
function rowSignature(n) {
  const last = n.lastAttempt;
  return [
    n.state,
    n.inFlight,
    n.attemptCount,
    last ? `${outcomeText(last)}|${last.startedAt}|${last.startedAtWall}|${last.message}` : '',
    nextAttemptAt(n),
    n.id === state.selected,
  ].join('\u0001');
}

/** @param {Summary} n */
function buildRow(n) {
  const last = n.lastAttempt;
  return h(
    'tr',
    {
      class: `row${n.id === state.selected ? ' selected' : ''}`,
      'data-id': n.id,
      onclick: () => {
        state.selected = n.id;
        state.detail = null;
        state.choice.redeliverStatus = '';
        load('detail');
      },
    },
    h('td', { class: 'mono' }, n.id),
    h('td', { class: 'mono' }, n.bookingNumber),
    h('td', null, n.bookingStatus),
    h('td', null, n.credentialId),
    h('td', null, pill(n.state, n.state), n.inFlight ? h('span', { class: 'muted' }, ' sending…') : ''),
    h('td', { class: 'attempts' }, `${n.attemptCount}/${MAX_ATTEMPTS}`),
    h(
      'td',
      { class: isOk(last) ? 'ok-text' : 'fail-text', title: last?.message ?? '' },
      last ? outcomeText(last) : '',
    ),
    h(
      'td',
      { class: 'mono', title: 'emulator time of the next attempt (the next redelivery batch)' },
      nextAttemptAt(n),
    ),
    h('td', { class: 'mono muted' }, n.filename),
    h(
      'td',
      { class: 'mono', title: 'emulator time of the last attempt' },
      last ? shortTime(last.startedAt) : '',
    ),
    h(
      'td',
      { class: 'mono muted', title: 'wall-clock time of the last attempt' },
      last ? shortTime(last.startedAtWall) : '',
    ),
  );
}

/** Puts the visible rows, newest first, into the list's kept <tbody>. */
export function patchRows() {
  const tbody = document.querySelector('#notification-table tbody[data-keep]');
  if (!tbody) return;
  const rows = visibleNotifications().slice(0, MAX_ROWS);
  const wanted = rows.map((n) => {
    const sig = rowSignature(n);
    let cached = rowCache.get(n.id);
    if (!cached || cached.sig !== sig) {
      cached = { sig, el: buildRow(n) };
      rowCache.set(n.id, cached);
    }
    return cached.el;
  });
  wanted.forEach((el, i) => {
    if (tbody.children[i] !== el) tbody.insertBefore(el, tbody.children[i] ?? null);
  });
  while (tbody.children.length > wanted.length) /** @type {Element} */ (tbody.lastElementChild).remove();
  if (rowCache.size > 4 * MAX_ROWS) {
    const keep = new Set(rows.map((n) => n.id));
    for (const id of rowCache.keys()) if (!keep.has(id)) rowCache.delete(id);
  }
}

// ---- the view -------------------------------------------------------------------------------------

export function renderNotifications() {
  const rows = visibleNotifications();
  const heads = [
    'ID',
    'BookingNumber',
    'BookingStatus',
    'Credential',
    'State',
    'Attempts',
    'Last',
    'Next attempt at',
    'Filename',
    'Emulator time',
    'Wall clock',
  ];
  const table = h(
    'table',
    { id: 'notification-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        heads.map((t) => h('th', null, t)),
      ),
    ),
    h('tbody', { 'data-keep': 'rows' }),
  );
  const list = h(
    'div',
    { class: 'panel', id: 'notification-list' },
    h(
      'h2',
      null,
      rows.length > MAX_ROWS
        ? `Newest ${MAX_ROWS} of ${rows.length} notifications`
        : `${rows.length} notifications`,
    ),
    rows.length ? h('div', { class: 'scroll' }, table) : h('div', { class: 'empty' }, emptyListHint()),
  );
  return h(
    'section',
    { id: 'notifications' },
    renderTrigger(),
    renderFilters(),
    h('div', { class: 'split' }, list, renderDetail()),
  );
}

function renderFilters() {
  const credentialIds = [
    ...new Set([
      ...state.credentials.map((c) => c.id),
      ...[...state.notifications.values()].map((n) => n.credentialId),
    ]),
  ];
  /** @param {keyof typeof state.filters} key */
  const setFilter = (key) => (/** @type {Event} */ e) => {
    state.filters[key] = /** @type {HTMLInputElement} */ (e.target).value;
    render();
  };
  const statuses = state.bookingStatuses.length
    ? state.bookingStatuses
    : ['Issued', 'Voided', 'Exchanged', 'Issued-Exch'];
  /** @param {string} format */
  const exportAs = (format) => () =>
    act(
      (name) => `Exported ${name}`,
      () => download(`/notifications/export?format=${format}${filterQuery() ? `&${filterQuery()}` : ''}`),
    );
  return h(
    'div',
    { class: 'bar filters' },
    h('label', { for: 'filter-text' }, 'Search'),
    h('input', {
      id: 'filter-text',
      type: 'search',
      placeholder: 'text in the body: a passenger, a BookingNumber…',
      value: state.filters.text,
      oninput: (/** @type {Event} */ e) => {
        state.filters.text = /** @type {HTMLInputElement} */ (e.target).value;
        state.textMatches = null;
        loadSoon('search', 150);
        render();
      },
    }),
    h('label', { for: 'filter-booking' }, 'Booking'),
    h('input', {
      id: 'filter-booking',
      placeholder: 'BookingNumber or BookingID',
      value: state.filters.booking,
      oninput: setFilter('booking'),
    }),
    h('label', { for: 'filter-state' }, 'State'),
    select(
      { id: 'filter-state', onchange: setFilter('state') },
      [
        ['', 'all'],
        ...['pending', 'delivered', 'exhausted', 'cancelled'].map(
          (s) => /** @type {[string, string]} */ ([s, s]),
        ),
      ],
      state.filters.state,
    ),
    h('label', { for: 'filter-credential' }, 'Credential'),
    select(
      { id: 'filter-credential', onchange: setFilter('credential') },
      [['', 'all'], ...credentialIds.map((id) => /** @type {[string, string]} */ ([id, id]))],
      state.filters.credential,
    ),
    h('label', { for: 'filter-event' }, 'Event'),
    select(
      {
        id: 'filter-event',
        onchange: setFilter('bookingStatus'),
        title: 'the BookingStatus the notification carries',
      },
      [['', 'all'], ...statuses.map((s) => /** @type {[string, string]} */ ([s, s]))],
      state.filters.bookingStatus,
    ),
    h('label', { for: 'filter-status-class' }, 'Last status'),
    select(
      { id: 'filter-status-class', onchange: setFilter('statusClass') },
      [
        ['', 'all'],
        ['2xx', '2xx'],
        ['3xx', '3xx'],
        ['4xx', '4xx'],
        ['5xx', '5xx'],
        ['network', 'no answer'],
        ['none', 'not sent yet'],
      ],
      state.filters.statusClass,
    ),
    h('label', { for: 'filter-attempts' }, 'Attempts'),
    select(
      { id: 'filter-attempts', onchange: setFilter('attempts') },
      [
        ['', 'any'],
        ...[0, 1, 2, 3, 4, 5].map((k) => /** @type {[string, string]} */ ([String(k), String(k)])),
      ],
      state.filters.attempts,
    ),
    h('span', { class: 'sep' }),
    h(
      'button',
      {
        type: 'button',
        id: 'export-har',
        disabled: state.busy,
        onclick: exportAs('har'),
        title: 'GET /__admin/notifications/export?format=har with these filters',
      },
      'Export HAR',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'export-ndjson',
        disabled: state.busy,
        onclick: exportAs('ndjson'),
        title: 'GET /__admin/notifications/export?format=ndjson with these filters',
      },
      'Export NDJSON',
    ),
  );
}

function emptyListHint() {
  if (!state.loaded) return 'Loading…';
  if (state.filters.text.trim() && state.textMatches === null) return 'Searching…';
  if (state.notifications.size > 0) return 'No notification matches these filters.';
  if (state.credentials.length === 0)
    return 'No credentials yet: add one on the "Credentials & users" tab (or POST /__admin/credentials), then trigger an Issue.';
  return 'No notifications yet: trigger an Issue above.';
}

function renderTrigger() {
  const transitions = state.reservations.filter((r) => r.status === 'Issued' || r.status === 'Issued-Exch');
  // The newest ones only: thousands of <option>s redrawn on every update would slow the whole page.
  /** @type {Array<[string, string]>} */
  const options = transitions
    .slice(-MAX_TRIGGER_OPTIONS)
    .reverse()
    .map((r) => [String(r.bookingId), `${r.bookingNumber} · ${r.bookingId} · ${r.status}`]);
  const chosen = () =>
    Number(/** @type {HTMLSelectElement} */ (document.getElementById('trigger-booking')).value);
  const current = options.some(([v]) => v === state.choice.triggerBooking)
    ? state.choice.triggerBooking
    : options[0]?.[0];
  /** @param {string} type @param {number} [bookingId] */
  const emit = (type, bookingId) =>
    act(
      (/** @type {any} */ r) =>
        `${r.event}: ${r.reservations.map((/** @type {any} */ x) => `${x.bookingNumber} (${x.status})`).join(', ')}, ${r.message}`,
      () => post('/events', bookingId === undefined ? { type } : { type, bookingId }),
    );
  return h(
    'div',
    { class: 'bar' },
    h('strong', null, 'Trigger'),
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        id: 'trigger-issue',
        disabled: state.busy,
        onclick: () => emit('Issue'),
      },
      'Issue',
    ),
    h('span', { class: 'sep' }),
    h('label', { for: 'trigger-booking' }, 'Booking'),
    options.length
      ? select(
          {
            id: 'trigger-booking',
            onchange: (/** @type {Event} */ e) => {
              state.choice.triggerBooking = /** @type {HTMLSelectElement} */ (e.target).value;
            },
          },
          options,
          current,
        )
      : h('select', { id: 'trigger-booking', disabled: true }, h('option', null, 'no Issued booking yet')),
    h(
      'button',
      {
        type: 'button',
        id: 'trigger-void',
        disabled: state.busy || !options.length,
        onclick: () => emit('Void', chosen()),
      },
      'Void',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'trigger-exchange',
        disabled: state.busy || !options.length,
        onclick: () => emit('Exchange', chosen()),
      },
      'Exchange',
    ),
  );
}
