// @ts-check
// The notifications view: trigger bar, find-and-export bar, the list, and one notification's detail.

import { renderDetail } from './detail.js';
import { h, isOk, outcomeText, pill, select, shortTime } from './dom.js';
import { notificationsHash, openNotification, replace, routeHash } from './route.js';
import {
  act,
  api,
  download,
  filterQuery,
  heldIds,
  isoOrEmpty,
  load,
  loadSoon,
  MAX_ATTEMPTS,
  MAX_ROWS,
  pageInFlight,
  post,
  render,
  STREAM_RELOAD_MS,
  say,
  serverPaged,
  state,
  toNewest,
} from './state.js';

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

/** Whether `n` passes the filters shown but the text search (which only the admin API can answer). @param {Summary} n */
function passesFilters(n) {
  const f = state.filters;
  const needle = f.booking.trim().toUpperCase();
  const since = isoOrEmpty(f.since);
  const until = isoOrEmpty(f.until);
  if (f.state && n.state !== f.state) return false;
  if (f.credential && n.credentialId !== f.credential) return false;
  if (f.bookingStatus && n.bookingStatus !== f.bookingStatus) return false;
  if (f.statusClass && statusClass(n) !== f.statusClass) return false;
  if (f.attempts && n.attemptCount !== Number(f.attempts)) return false;
  if (needle && !n.bookingNumber.includes(needle) && !String(n.bookingId).includes(needle)) return false;
  if (since && n.createdAt < since) return false;
  if (until && n.createdAt >= until) return false;
  return true;
}

/**
 * The rows of the page shown (newest first), how many match in all, and whether older ones remain.
 * At the newest end without a text search the rows are the held notifications that pass the filters
 * (the stream adds a new one at once); a filtered list's count is the admin API's, read again at most
 * every STREAM_RELOAD_MS. A text search and any other page show the admin API's page, the stream
 * keeping each row current.
 */
function shownRows() {
  const p = state.page;
  /** @type {Summary[]} */
  const rows = [];
  if (p.anchor === 'newest' && !state.filters.text.trim()) {
    const filtered = serverPaged();
    let matching = 0;
    for (const id of heldIds()) {
      const n = /** @type {Summary} */ (state.notifications.get(id));
      if (filtered && !passesFilters(n)) continue;
      matching++;
      if (rows.length < MAX_ROWS) rows.push(n);
    }
    const total = filtered ? Math.max(matching, p.ids ? p.total : 0) : Math.max(state.total, matching);
    return { page: rows, more: total > rows.length, total };
  }
  for (const id of p.ids ?? []) {
    const n = state.notifications.get(id);
    if (n) rows.push(n);
  }
  return { page: rows, more: p.nextCursor !== null, total: p.total };
}

/** The filters named in a link's query (the names of the admin API's, as `filterQuery` writes them). @param {URLSearchParams} q */
export function filtersFromQuery(q) {
  const f = state.filters;
  f.state = q.get('state') ?? '';
  f.credential = q.get('credentialId') ?? '';
  f.bookingStatus = q.get('bookingStatus') ?? '';
  f.statusClass = q.get('statusClass') ?? '';
  f.attempts = q.get('attempts') ?? '';
  f.booking = q.get('booking') ?? '';
  f.text = q.get('q') ?? '';
  f.since = q.get('since') ?? '';
  f.until = q.get('until') ?? '';
}

// ---- rows ---------------------------------------------------------------------------------------
// The list's <tbody> is kept across redraws (data-keep) and its rows are updated here: a row is
// built again only when what it shows changed, so 5,000 notifications streaming in touch few nodes.

/** @type {Map<string, { sig: string, el: HTMLElement }>} */
const rowCache = new Map();

/** Whether an attempt of `n` is queued or running (a notification cancelled meanwhile: no longer). @param {Summary} n */
const sending = (n) => n.state === 'pending' && n.inFlight;

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
    sending(n),
    n.attemptCount,
    last ? `${outcomeText(last)}|${last.startedAt}|${last.startedAtWall}|${last.message}` : '',
    nextAttemptAt(n),
    n.id === state.selected,
  ].join('\u0001');
}

/** A typed time that is not one: the field is marked and named by the message under the filters. @param {string} text */
const timeInvalid = (text) =>
  text.trim() && !isoOrEmpty(text) ? { 'aria-invalid': 'true', 'aria-describedby': 'filter-time-error' } : {};

/** Says which typed time is not one, and that it is not applied (a filter never ignores it silently). */
function timeError() {
  const bad = [state.filters.since, state.filters.until].filter((t) => t.trim() && !isoOrEmpty(t));
  return bad.length
    ? h(
        'div',
        { class: 'form-error', id: 'filter-time-error', role: 'alert' },
        `${bad.map((t) => `"${t}"`).join(' and ')} ${bad.length === 1 ? 'is' : 'are'} not a time like 2026-04-27 10:00 (UTC, emulator time): not applied.`,
      )
    : null;
}

/** @param {Summary} n */
function buildRow(n) {
  const last = n.lastAttempt;
  return h(
    'tr',
    {
      class: `row${n.id === state.selected ? ' selected' : ''}`,
      'data-id': n.id,
      onclick: () => openNotification(n.id),
    },
    // A link per row: the keyboard reaches it (Tab, Enter), a screen reader names it, and it is the
    // delivery's permalink (open in a new tab, copy the address).
    h(
      'td',
      { class: 'mono' },
      h(
        'a',
        {
          href: routeHash('notifications', n.id),
          class: 'row-link',
          'aria-current': n.id === state.selected ? 'true' : undefined,
          'aria-label': `${n.id}: ${n.bookingNumber} ${n.bookingStatus} to ${n.credentialId}, ${n.state}`,
          onclick: (/** @type {MouseEvent} */ e) => {
            if (e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return; // a new tab or window
            e.preventDefault();
            e.stopPropagation();
            openNotification(n.id);
          },
        },
        n.id,
      ),
    ),
    h('td', { class: 'mono' }, n.bookingNumber),
    h('td', null, n.bookingStatus),
    h('td', null, n.credentialId),
    h('td', null, pill(n.state, n.state), sending(n) ? h('span', { class: 'muted' }, ' sending…') : ''),
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
  const { page: rows } = shownRows();
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

// ---- pages -------------------------------------------------------------------------------------
// A filtered list or a search is a page the admin API answers: read after a pause in typing or on
// Enter, never per keystroke; a newer read aborts the one in flight.

/** How long typing must pause before the page is read. */
const SEARCH_PAUSE_MS = 300;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let searchTimer;

function searchAfterPause() {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(searchNow, SEARCH_PAUSE_MS);
}

/** Reads the newest page of the filters shown now (their rows go until it answers). */
export function searchNow() {
  clearTimeout(searchTimer);
  searchTimer = undefined;
  toNewest();
  load('page');
}

/**
 * The stream changed notifications the page shown may hold or count: read it again, at most once in
 * STREAM_RELOAD_MS, and never while the reader is typing or a read is under way (that one will answer
 * with them). The rows it holds are kept current by the stream meanwhile.
 */
export function searchAgainSoon() {
  if (!serverPaged() || searchTimer !== undefined || pageInFlight()) return;
  loadSoon('page', STREAM_RELOAD_MS);
}

/** Goes to another page of the same filters. @param {Partial<typeof state.page>} where */
function goPage(where) {
  Object.assign(state.page, { cursor: null, at: '' }, where);
  load('page');
  render();
}

/**
 * Shows the page of the notifications created before the time typed: the first created at or after
 * it is found (one cheap call, no filter), and the page is the one older than it.
 * @param {string} typed the control's value (`2026-04-27T10:00`, UTC like every time shown)
 */
async function jumpTo(typed) {
  const at = isoOrEmpty(typed);
  if (!at) return;
  try {
    const first = /** @type {import('./state.js').NotificationList} */ (
      await api(`/notifications?since=${encodeURIComponent(at)}&page=oldest&limit=1`)
    );
    const id = first.notifications[0]?.id;
    if (id) goPage({ anchor: 'before', cursor: id, at: typed.replace('T', ' ') });
    else goPage({ anchor: 'newest', cursor: null, at: '' });
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), true, 'load');
  }
}

/** The list's paging: the newest, newer, older and oldest pages, and the page at a time. */
function pager(
  /** @type {number} */ shown,
  /** @type {string | null} */ oldest,
  /** @type {boolean} */ more,
) {
  const p = state.page;
  const atNewest = p.anchor === 'newest';
  if (atNewest && !more) return null;
  return h(
    'div',
    { class: 'bar pager' },
    h(
      'button',
      { type: 'button', id: 'page-newest', disabled: atNewest, onclick: () => goPage({ anchor: 'newest' }) },
      'Newest',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'page-newer',
        disabled: atNewest || !p.newerCursor,
        onclick: () => goPage({ anchor: 'after', cursor: p.newerCursor }),
      },
      'Newer',
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'page-older',
        disabled: !more || !oldest,
        onclick: () => goPage({ anchor: 'before', cursor: oldest }),
      },
      `Older than these ${shown}`,
    ),
    h(
      'button',
      {
        type: 'button',
        id: 'page-oldest',
        disabled: !more,
        onclick: () => goPage({ anchor: 'oldest' }),
      },
      'Oldest',
    ),
    h(
      'form',
      {
        class: 'jump',
        onsubmit: (/** @type {SubmitEvent} */ e) => {
          e.preventDefault();
          const input = /** @type {HTMLInputElement} */ (document.getElementById('page-time'));
          jumpTo(input.value);
        },
      },
      h('label', { for: 'page-time' }, 'Created before'),
      h('input', {
        id: 'page-time',
        type: 'datetime-local',
        step: '1',
        required: true, // the browser says so when Show is pressed without a time
        title: 'emulator time (UTC): the page of the notifications created just before it',
      }),
      h('button', { type: 'submit', id: 'page-jump' }, 'Show'),
    ),
  );
}

// ---- the view -------------------------------------------------------------------------------------

/** @param {number} shown @param {number} total */
function listTitle(shown, total) {
  const p = state.page;
  const searching = Boolean(state.filters.text.trim());
  if (searching && p.ids === null) return 'Searching…';
  const what = searching ? 'matches' : 'notifications';
  if (p.anchor === 'newest')
    return shown === total ? `${total} ${what}` : `Newest ${shown} of ${total} ${what}`;
  if (p.anchor === 'oldest') return `Oldest ${shown} of ${total} ${what}`;
  if (p.at) return `${shown} created before ${p.at}, of ${total} ${what}`;
  return `${shown} ${p.anchor === 'after' ? 'newer' : 'older'} of ${total} ${what}`;
}

export function renderNotifications() {
  const { page, more, total } = shownRows();
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
    h('h2', null, listTitle(page.length, total)),
    page.length ? h('div', { class: 'scroll' }, table) : h('div', { class: 'empty' }, emptyListHint()),
    pager(page.length, page.at(-1)?.id ?? null, more),
  );
  return h(
    'section',
    { id: 'notifications' },
    renderTrigger(),
    renderFilters(),
    // With a notification opened the list gives up half its width: see .split.has-detail in dashboard.css.
    h('div', { class: state.selected ? 'split has-detail' : 'split' }, list, renderDetail()),
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
    replace(notificationsHash(state.selected));
    // A filtered list is the admin API's page: read it again (after a pause in typing).
    toNewest();
    searchAfterPause();
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
      title:
        'values in the body (never key names), the id, BookingNumber, filename; Pax.LastName:Smith for one field, status:500 for an answer; sent on a pause or Enter',
      oninput: (/** @type {Event} */ e) => {
        state.filters.text = /** @type {HTMLInputElement} */ (e.target).value;
        replace(notificationsHash(state.selected));
        searchAfterPause();
        render();
      },
      onkeydown: (/** @type {KeyboardEvent} */ e) => {
        if (e.key === 'Enter') searchNow();
      },
    }),
    h('label', { for: 'filter-since' }, 'Created from'),
    h('input', {
      id: 'filter-since',
      class: 'time',
      placeholder: 'yyyy-mm-dd hh:mm',
      title: 'emulator time (UTC): created at or after',
      value: state.filters.since,
      oninput: setFilter('since'),
      ...timeInvalid(state.filters.since),
    }),
    h('label', { for: 'filter-until' }, 'to'),
    h('input', {
      id: 'filter-until',
      class: 'time',
      placeholder: 'yyyy-mm-dd hh:mm',
      title: 'emulator time (UTC): created before',
      value: state.filters.until,
      oninput: setFilter('until'),
      ...timeInvalid(state.filters.until),
    }),
    timeError(),
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
  if (state.filters.text.trim() && state.page.ids === null) return 'Searching…';
  if (state.total > 0) return 'No notification matches these filters.';
  if (state.credentials.length === 0)
    return 'No credentials yet: add one on the "Credentials & users" tab (or POST /__admin/credentials), then trigger an Issue.';
  return 'No notifications yet: trigger an Issue above.';
}

function renderTrigger() {
  const transitions = [...state.reservations.values()].filter(
    (r) => r.status === 'Issued' || r.status === 'Issued-Exch',
  );
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
      (r) =>
        `${r.event}: ${r.reservations.map((x) => `${x.bookingNumber} (${x.status})`).join(', ')}, ${r.message}`,
      () =>
        /** @type {Promise<import('../src/client/types.js').EventResult>} */ (
          post('/events', bookingId === undefined ? { type } : { type, bookingId })
        ),
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
