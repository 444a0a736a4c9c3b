// The credentials-and-users view and the GetAccessToken journal view.

import { fullTime, h, pill } from './dom.js';
import { state } from './state.js';

export function renderSetup() {
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

export function renderJournal() {
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
