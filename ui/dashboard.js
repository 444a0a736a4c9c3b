// The reportbo-emulator dashboard: reads the admin API, listens to GET /__admin/stream (Server-Sent
// Events) and changes nothing except through the admin API, so the page can do nothing curl cannot.
// Plain browser JavaScript, no build step, no dependencies, no external files.

const ADMIN = '/__admin';
const MAX_ROWS = 300; // notification rows drawn at once (newest first); the filters reach the rest
const MAX_JOURNAL = 500;
const MAX_ATTEMPTS = 5;

// Sections of the page, in the order of the tabs. The receiver conformance page (verify) goes here.
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
];

const state = {
  connected: false,
  clock: null,
  clockReadAt: 0,
  notifications: new Map(), // id → summary (with lastAttempt), in creation order
  reservations: [],
  credentials: [],
  users: [],
  journal: [], // oldest first
  bookingStatuses: [],
  filters: { state: '', credential: '', booking: '' },
  selected: null,
  detail: null,
  // What the reader chose in the forms: the page is redrawn on every live update and keeps them.
  choice: { triggerBooking: '', redeliverStatus: '' },
  busy: false,
};

// ---- admin API ------------------------------------------------------------------------------

async function api(path, init) {
  const res = await fetch(ADMIN + path, init);
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok)
    throw new Error(body?.error?.message ?? `${init?.method ?? 'GET'} ${path}: HTTP ${res.status}`);
  return body;
}

function post(path, body) {
  return api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

/** Runs a button's admin call, shows what it did (or why it failed) and refreshes what it changed. */
async function act(what, call) {
  state.busy = true;
  render();
  try {
    const answer = await call();
    say(typeof what === 'function' ? what(answer) : what);
  } catch (err) {
    say(err.message, true);
  } finally {
    state.busy = false;
    render();
  }
}

function say(text, isError = false) {
  const el = document.getElementById('status');
  el.textContent = text;
  el.className = isError ? 'status error' : 'status';
}

const loaders = {
  async clock() {
    state.clock = await api('/clock');
    state.clockReadAt = Date.now();
  },
  async notifications() {
    // The stream keeps delivering while this list is read: merge, never overwrite newer rows.
    const { notifications } = await api('/notifications');
    for (const n of notifications) upsert(n);
  },
  async reservations() {
    state.reservations = (await api('/reservations')).reservations;
  },
  async credentials() {
    state.credentials = (await api('/credentials')).credentials;
  },
  async users() {
    state.users = (await api('/users')).users;
  },
  async journal() {
    state.journal = (await api('/requests')).requests.slice(-MAX_JOURNAL);
  },
  async statuses() {
    // The accepted statuses of manual redelivery, as the admin API documents them (they never change).
    if (state.bookingStatuses.length) return;
    const doc = await api('/openapi.json');
    state.bookingStatuses = doc.components.schemas.RedeliverInput.properties.status.enum;
  },
  async detail() {
    // Answers may arrive out of order: only the last request's answer is shown.
    const ticket = ++detailRequests;
    const detail = state.selected ? await api(`/notifications/${state.selected}`).catch(() => null) : null;
    if (ticket === detailRequests) state.detail = detail;
  },
};

async function load(...names) {
  try {
    await Promise.all(names.map((n) => loaders[n]()));
  } catch (err) {
    say(err.message, true);
  }
  render();
}

const loadAll = () => load(...Object.keys(loaders));
let detailRequests = 0;

/**
 * Keeps the newest view of a notification, whether it came from the stream or from a list read
 * meanwhile: more attempts is newer; with as many, the one no longer in flight is.
 */
function upsert(n) {
  const known = state.notifications.get(n.id);
  if (!known || n.attemptCount > known.attemptCount || (n.attemptCount === known.attemptCount && !n.inFlight))
    state.notifications.set(n.id, n);
}

// Reservations change with every event; under a burst of events read them once.
let reservationsTimer;
function reloadReservationsSoon() {
  clearTimeout(reservationsTimer);
  reservationsTimer = setTimeout(() => load('reservations'), 200);
}

// ---- live stream ----------------------------------------------------------------------------

function listen() {
  const source = new EventSource(`${ADMIN}/stream`);
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
    } else if (change.startsWith('credential')) load('credentials');
    else if (change.startsWith('user')) load('users');
  });
  on('resync', loadAll);
}

// ---- DOM helpers ----------------------------------------------------------------------------

/** An element; text children are set as text (never parsed as HTML). */
function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'value') el.value = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** `2026-04-27T10:55:00.000Z` → `2026-04-27 10:55:00`. */
const fullTime = (iso) => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : '');
/** `2026-04-27T10:55:00.000Z` → `10:55:00`. */
const shortTime = (iso) => fullTime(iso).slice(11);

const pill = (text, kind) => h('span', { class: `pill ${kind}` }, text);

function outcomeText(attempt) {
  if (!attempt) return '';
  return attempt.outcome === 'http_status' ? String(attempt.statusCode) : attempt.outcome;
}

const isOk = (attempt) => attempt?.outcome === 'http_status' && attempt.statusCode === 200;

function select(props, options, current) {
  return h(
    'select',
    props,
    options.map(([value, label]) => h('option', { value, selected: value === current }, label)),
  );
}

// ---- rendering ------------------------------------------------------------------------------

let frame = 0;
function render() {
  if (frame) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    draw();
  });
}

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
      if (caret !== undefined && el.setSelectionRange) el.setSelectionRange(caret, caret);
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

function visibleNotifications() {
  const { state: wanted, credential, booking } = state.filters;
  const needle = booking.trim().toUpperCase();
  const rows = [];
  const all = [...state.notifications.values()];
  for (let i = all.length - 1; i >= 0; i--) {
    const n = all[i];
    if (wanted && n.state !== wanted) continue;
    if (credential && n.credentialId !== credential) continue;
    if (needle && !n.bookingNumber.includes(needle) && !String(n.bookingId).includes(needle)) continue;
    rows.push(n);
  }
  return rows;
}

function renderNotifications() {
  const rows = visibleNotifications();
  const credentialIds = [
    ...new Set([
      ...state.credentials.map((c) => c.id),
      ...[...state.notifications.values()].map((n) => n.credentialId),
    ]),
  ];
  const setFilter = (key) => (e) => {
    state.filters[key] = e.target.value;
    render();
  };
  const table = h(
    'table',
    { id: 'notification-table' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        [
          'ID',
          'BookingNumber',
          'BookingStatus',
          'Credential',
          'State',
          'Attempts',
          'Last',
          'Next batch',
          'Filename',
        ].map((t) => h('th', null, t)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.slice(0, MAX_ROWS).map((n) => {
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
            { class: 'mono' },
            n.state === 'pending' && state.clock ? shortTime(state.clock.nextBatchAt) : '',
          ),
          h('td', { class: 'mono muted' }, n.filename),
        );
      }),
    ),
  );
  const list = h(
    'div',
    { class: 'panel' },
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
    h(
      'div',
      { class: 'bar' },
      h('label', { for: 'filter-state' }, 'State'),
      select(
        { id: 'filter-state', onchange: setFilter('state') },
        [
          ['', 'all'],
          ['pending', 'pending'],
          ['delivered', 'delivered'],
          ['exhausted', 'exhausted'],
        ],
        state.filters.state,
      ),
      h('label', { for: 'filter-credential' }, 'Credential'),
      select(
        { id: 'filter-credential', onchange: setFilter('credential') },
        [['', 'all'], ...credentialIds.map((id) => [id, id])],
        state.filters.credential,
      ),
      h('label', { for: 'filter-booking' }, 'Booking'),
      h('input', {
        id: 'filter-booking',
        placeholder: 'BookingNumber or BookingID',
        value: state.filters.booking,
        oninput: setFilter('booking'),
      }),
    ),
    h('div', { class: 'split' }, list, renderDetail()),
  );
}

function emptyListHint() {
  if (state.notifications.size > 0) return 'No notification matches these filters.';
  if (state.credentials.length === 0)
    return 'No credentials yet: add one (POST /__admin/credentials), then trigger an Issue.';
  return 'No notifications yet: trigger an Issue above.';
}

function renderTrigger() {
  const transitions = state.reservations.filter((r) => r.status === 'Issued' || r.status === 'Issued-Exch');
  const options = [...transitions]
    .reverse()
    .map((r) => [String(r.bookingId), `${r.bookingNumber} · ${r.bookingId} · ${r.status}`]);
  const chosen = () => Number(document.getElementById('trigger-booking').value);
  const current = options.some(([v]) => v === state.choice.triggerBooking)
    ? state.choice.triggerBooking
    : options[0]?.[0];
  const emit = (type, bookingId) =>
    act(
      (r) =>
        `${r.event}: ${r.reservations.map((x) => `${x.bookingNumber} (${x.status})`).join(', ')}, ${r.message}`,
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
            onchange: (e) => {
              state.choice.triggerBooking = e.target.value;
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

function renderDetail() {
  const d = state.detail;
  if (!state.selected)
    return h(
      'div',
      { class: 'panel detail', id: 'detail' },
      h('div', { class: 'empty' }, 'Select a notification to see its headers, body and attempts.'),
    );
  if (!d)
    return h(
      'div',
      { class: 'panel detail', id: 'detail' },
      h('div', { class: 'empty' }, `Loading ${state.selected}…`),
    );
  const summary = state.notifications.get(d.id) ?? d;
  const canRetry = d.state === 'pending' && !summary.inFlight && !state.busy;
  const statuses = state.bookingStatuses.length ? state.bookingStatuses : [d.bookingStatus];
  return h(
    'div',
    { class: 'panel detail', id: 'detail', 'data-id': d.id },
    h(
      'div',
      { class: 'body' },
      h(
        'div',
        { class: 'title' },
        h('strong', { class: 'mono' }, d.id),
        h('span', { class: 'mono' }, d.bookingNumber),
        h('span', null, `BookingID ${d.bookingId}`),
        h('span', null, d.bookingStatus),
        pill(d.state, d.state),
        h('span', { class: 'muted' }, `→ ${d.credentialId}`),
      ),
      h('div', { class: 'muted mono' }, d.url),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            id: 'retry-now',
            disabled: !canRetry,
            title:
              'POST /__admin/notifications/:id/retry: one attempt now, outside the batch schedule (counts toward the 5)',
            onclick: () =>
              act(
                (r) =>
                  `${d.id}: attempt ${r.attempt.number}/${MAX_ATTEMPTS} → ${outcomeText(r.attempt)} (${r.notification.state})`,
                () => post(`/notifications/${d.id}/retry`),
              ),
          },
          'Retry now',
        ),
        h('span', { class: 'sep' }),
        h('label', { for: 'redeliver-status' }, 'Manual redelivery as'),
        select(
          {
            id: 'redeliver-status',
            onchange: (e) => {
              state.choice.redeliverStatus = e.target.value;
            },
          },
          statuses.map((s) => [s, s]),
          state.choice.redeliverStatus || d.bookingStatus,
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'redeliver',
            disabled: state.busy,
            title:
              'POST /__admin/reservations/:bookingId/redeliver: a new notification per matching credential',
            onclick: () =>
              act(
                (r) =>
                  `Redelivery of ${d.bookingNumber}: ${r.notifications.map((n) => n.id).join(', ') || 'no notification'} (${r.message})`,
                () =>
                  post(`/reservations/${d.bookingId}/redeliver`, {
                    status: document.getElementById('redeliver-status').value,
                  }),
              ),
          },
          'Redeliver',
        ),
      ),
      d.warnings.length
        ? h(
            'ul',
            { class: 'warnings' },
            d.warnings.map((w) => h('li', null, w)),
          )
        : null,
      h('h3', null, `Attempts (${d.attempts.length}/${MAX_ATTEMPTS})`),
      d.attempts.length
        ? h('ol', { class: 'timeline', id: 'attempts' }, d.attempts.map(renderAttempt))
        : h('div', { class: 'muted' }, 'The first attempt is under way.'),
      d.state === 'pending' && state.clock
        ? h('div', { class: 'muted' }, `Next redelivery batch: ${fullTime(state.clock.nextBatchAt)}`)
        : null,
      h('h3', null, 'Headers as sent'),
      h(
        'table',
        { class: 'headers' },
        h(
          'tbody',
          null,
          Object.entries(d.headers).map(([k, v]) => h('tr', null, h('td', null, k), h('td', null, v))),
        ),
      ),
      h('h3', null, 'Body (decoded)'),
      h('div', { class: 'json', id: 'body' }, jsonTree(d.body, null, 0)),
    ),
  );
}

function renderAttempt(a) {
  const trigger =
    a.trigger === 'first'
      ? 'first attempt'
      : a.trigger === 'batch'
        ? `batch ${shortTime(a.batchAt)}`
        : 'retry now';
  return h(
    'li',
    { class: isOk(a) ? 'ok' : '', 'data-number': a.number },
    h(
      'div',
      null,
      h('strong', null, `#${a.number} `),
      h('span', { class: isOk(a) ? 'ok-text' : 'fail-text' }, outcomeText(a)),
      ` in ${a.durationMs} ms · ${trigger}`,
    ),
    h('div', { class: 'when' }, `emulator ${fullTime(a.startedAt)} · wall ${fullTime(a.startedAtWall)}`),
    h('div', null, a.message),
    a.responseBody ? h('pre', null, a.responseBody.slice(0, 512)) : null,
  );
}

/** A collapsible view of JSON: objects and arrays are <details>, open for the first two levels. */
function jsonTree(value, key, depth) {
  const label = key === null ? [] : [h('span', { class: 'key' }, JSON.stringify(key)), ': '];
  if (value !== null && typeof value === 'object') {
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    return h(
      'details',
      { open: depth < 2 },
      h(
        'summary',
        null,
        label,
        open,
        h('span', { class: 'hint' }, ` ${entries.length} ${Array.isArray(value) ? 'items' : 'keys'} `),
        close,
      ),
      entries.map(([k, v]) => jsonTree(v, Array.isArray(value) ? null : k, depth + 1)),
    );
  }
  const kind = typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'literal';
  return h('div', { class: 'leaf' }, label, h('span', { class: kind }, JSON.stringify(value)));
}

function renderSetup() {
  const credentials = h(
    'div',
    { class: 'panel' },
    h('h2', null, `Credentials (${state.credentials.length})`),
    state.credentials.length
      ? h(
          'table',
          { id: 'credential-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['ID', 'URL', 'ApiKey', 'Filters', 'Warnings'].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            state.credentials.map((c) =>
              h(
                'tr',
                { 'data-id': c.id },
                h('td', { class: 'mono' }, c.id),
                h('td', { class: 'mono wrap' }, c.url),
                h('td', { class: 'mono' }, c.apiKey),
                h('td', null, filterText(c.filters)),
                h('td', { class: 'wrap muted' }, c.warnings.join('; ')),
              ),
            ),
          ),
        )
      : h('div', { class: 'empty' }, 'No credentials: POST /__admin/credentials, --config or --scenario.'),
  );
  const users = h(
    'div',
    { class: 'panel' },
    h('h2', null, `GetAccessToken users (${state.users.length})`),
    state.users.length
      ? h(
          'table',
          { id: 'user-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Username', 'IDWeb', 'WebDescription', 'Versions'].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            state.users.map((u) =>
              h(
                'tr',
                null,
                h('td', { class: 'mono' }, u.username),
                h('td', null, u.idWeb),
                h('td', null, u.webDescription),
                h('td', null, u.versions.join(', ')),
              ),
            ),
          ),
        )
      : h('div', { class: 'empty' }, 'No users: POST /__admin/users, --config or --scenario.'),
  );
  return h('section', { id: 'setup', class: 'grid2' }, credentials, users);
}

function filterText(filters) {
  const parts = [];
  if (filters.pcc?.length) parts.push(`PCC ${filters.pcc.join(', ')}`);
  if (filters.idWeb?.length) parts.push(`IdWeb ${filters.idWeb.join(', ')}`);
  return parts.length ? parts.join(' and ') : h('span', { class: 'muted' }, 'every booking');
}

function renderJournal() {
  const rows = [...state.journal].reverse();
  return h(
    'section',
    { id: 'journal', class: 'panel' },
    h('h2', null, `GetAccessToken calls (${rows.length}, newest first)`),
    rows.length
      ? h(
          'table',
          { id: 'journal-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              [
                'ID',
                'Emulator time',
                'Version',
                'Variant',
                'User',
                'Result',
                'TransactionCode',
                'HTTP',
                'Fault',
                'Warnings',
              ].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            rows.map((e) =>
              h(
                'tr',
                { 'data-id': e.id },
                h('td', { class: 'mono' }, e.id),
                h('td', { class: 'mono' }, fullTime(e.at)),
                h('td', null, e.version),
                h('td', null, e.variant),
                h('td', { class: 'mono' }, e.username ?? '—'),
                h('td', null, pill(e.outcome, e.outcome === 'ok' && !e.fault ? 'ok' : 'failed')),
                h('td', { class: 'mono' }, e.transactionCode ?? ''),
                h('td', null, e.httpStatus),
                h('td', null, e.fault ? `${e.fault.kind} (${e.fault.id})` : ''),
                h('td', { class: 'wrap muted' }, e.warnings.join('; ')),
              ),
            ),
          ),
        )
      : h('div', { class: 'empty' }, 'No GetAccessToken call yet.'),
  );
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
window.addEventListener('hashchange', render);
// Real and compressed clocks move by themselves: redraw the time every second.
setInterval(() => {
  if (state.clock && state.clock.mode !== 'manual') drawClock();
}, 1000);
listen();
