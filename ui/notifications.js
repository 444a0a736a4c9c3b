// The notifications view: trigger bar, filters, the list, and one notification's detail.

import { fullTime, h, isOk, jsonTree, outcomeText, pill, select, shortTime } from './dom.js';
import { act, load, MAX_ATTEMPTS, MAX_ROWS, post, render, state } from './state.js';

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

export function renderNotifications() {
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
          ['cancelled', 'cancelled'],
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
      d.state === 'cancelled'
        ? h(
            'div',
            { class: 'cancelled-note', id: 'cancelled' },
            `Cancelled at ${fullTime(d.cancelledAt)}: ${cancelText(d.cancelReason)}; it is not redelivered.`,
          )
        : null,
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
        : h(
            'div',
            { class: 'muted' },
            d.state === 'cancelled'
              ? 'No attempt: cancelled before its first attempt was sent.'
              : 'The first attempt is under way.',
          ),
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

function cancelText(reason) {
  return reason === 'credential_deleted' ? 'its credential was deleted (credential_deleted)' : String(reason);
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
