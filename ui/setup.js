// @ts-check
// The set-up view: credentials (with their delivery figures) and GetAccessToken users, each added,
// edited and deleted through the admin API; trusted CAs; GetAccessToken fault rules. Each panel is
// one function in PANELS, so a new kind of set-up is one more entry.

import { fullTime, h, select, shortTime } from './dom.js';
import { confirmButton, field, formError, formState, listOf, submit } from './forms.js';
import { outagesPanel } from './outages.js';
import { act, load, send, state } from './state.js';

/** @typedef {import('./state.js').Credential} Credential */
/** @typedef {import('./state.js').User} User */

const forms = {
  credential: formState({ id: '', apiKey: '', url: '', pcc: '', idWeb: '' }),
  user: formState({ username: '', password: '', idWeb: '', webDescription: '', v16: true, v17: true }),
  trust: formState({ pem: '' }),
  fault: formState({ kind: 'status', version: '', variant: '', status: '503', delayMs: '2000', count: '1' }),
};

/** @param {Credential['filters']} filters */
function filterText(filters) {
  const parts = [];
  if (filters.pcc?.length) parts.push(`PCC ${filters.pcc.join(', ')}`);
  if (filters.idWeb?.length) parts.push(`IdWeb ${filters.idWeb.join(', ')}`);
  return parts.length ? parts.join(' and ') : h('span', { class: 'muted' }, 'every booking');
}

/** @param {number | null} rate */
const percent = (rate) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

function credentialsPanel() {
  const form = forms.credential;
  const editing = form.editing;
  const stats = new Map(state.stats.map((s) => [s.credentialId, s]));
  const rows = state.credentials.map((c) => {
    const s = stats.get(c.id);
    const last = s?.lastFailure;
    return h(
      'tr',
      { 'data-id': c.id, class: editing === c.id ? 'selected' : '' },
      h('td', { class: 'mono' }, c.id),
      h('td', { class: 'mono wrap' }, c.url),
      h('td', { class: 'mono' }, c.apiKey),
      h('td', null, filterText(c.filters)),
      h('td', { class: 'num stat-attempts' }, s ? `${s.attempts}` : '0'),
      h(
        'td',
        {
          class: 'num stat-rate',
          title: s ? `${s.successfulAttempts} of ${s.attempts} attempts answered 200` : '',
        },
        percent(s?.successRate ?? null),
      ),
      h(
        'td',
        { class: 'wrap stat-failure', title: last?.message ?? '' },
        last
          ? `${last.statusCode ?? last.outcome} · ${last.notificationId} #${last.attempt} · ${fullTime(last.at)}`
          : '—',
      ),
      h('td', { class: 'mono stat-next' }, s?.nextBatchAt ? shortTime(s.nextBatchAt) : '—'),
      h('td', { class: 'wrap muted' }, c.warnings.join('; ')),
      h(
        'td',
        { class: 'row-actions' },
        h(
          'button',
          {
            type: 'button',
            id: `edit-credential-${c.id}`,
            onclick: () => {
              form.editing = c.id;
              form.error = '';
              form.errorPath = '';
              form.values = {
                id: c.id,
                apiKey: c.apiKey,
                url: c.url,
                pcc: (c.filters.pcc ?? []).join(', '),
                idWeb: (c.filters.idWeb ?? []).join(', '),
              };
              load();
            },
          },
          'Edit',
        ),
        confirmButton(`delete-credential-${c.id}`, 'Delete', () =>
          act(`Credential ${c.id} deleted; its pending notifications are cancelled`, () =>
            send('DELETE', `/credentials/${encodeURIComponent(c.id)}`),
          ),
        ),
      ),
    );
  });
  const v = form.values;
  const input = () => {
    /** @type {Record<string, unknown>} */
    const filters = {};
    if (String(v.pcc).trim()) filters.pcc = listOf(String(v.pcc), false);
    if (String(v.idWeb).trim()) filters.idWeb = listOf(String(v.idWeb), true);
    return {
      ...(String(v.id).trim() && !editing ? { id: String(v.id).trim() } : {}),
      apiKey: v.apiKey,
      url: v.url,
      filters,
    };
  };
  const reset = () => {
    form.values = formState({ id: '', apiKey: '', url: '', pcc: '', idWeb: '' }).values;
    form.editing = null;
  };
  return h(
    'div',
    { class: 'panel', id: 'credentials-panel' },
    h('h2', null, `Credentials (${state.credentials.length})`),
    !state.loaded
      ? h('div', { class: 'empty' }, 'Loading…')
      : state.credentials.length
        ? h(
            'div',
            { class: 'scroll' },
            h(
              'table',
              { id: 'credential-table' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  [
                    'ID',
                    'URL',
                    'ApiKey',
                    'Filters',
                    'Attempts',
                    'Success',
                    'Last failure',
                    'Next batch',
                    'Warnings',
                    '',
                  ].map((t) => h('th', null, t)),
                ),
              ),
              h('tbody', null, rows),
            ),
          )
        : h(
            'div',
            { class: 'empty' },
            'No credentials yet: add one below (or POST /__admin/credentials, --config, --scenario).',
          ),
    h(
      'form',
      {
        class: 'setup-form',
        id: 'credential-form',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          submit(
            form,
            (/** @type {Credential} */ c) =>
              editing ? `Credential ${c.id} changed (new notifications use it)` : `Credential ${c.id} added`,
            () =>
              /** @type {Promise<Credential>} */ (
                editing
                  ? send('PUT', `/credentials/${encodeURIComponent(editing)}`, input())
                  : send('POST', '/credentials', input())
              ),
            reset,
          );
        },
      },
      h('h3', null, editing ? `Edit credential ${editing}` : 'Add a credential'),
      h(
        'div',
        { class: 'fields' },
        field('credential', form, 'id', 'ID', {
          placeholder: 'c1, c2… when empty',
          readonly: editing !== null,
        }),
        field('credential', form, 'apiKey', 'ApiKey', {
          placeholder: 'sent as Authorization: Bearer <ApiKey>',
        }),
        field('credential', form, 'url', 'URL', { placeholder: 'https://localhost:8443/reportbo' }),
        field('credential', form, 'pcc', 'PCC filter', { placeholder: 'AAA1, BBB2 (empty: every PCC)' }),
        field('credential', form, 'idWeb', 'IdWeb filter', {
          placeholder: '1001, 1002 (empty: every IdWeb)',
        }),
      ),
      formError('credential', form),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'primary', id: 'credential-submit', disabled: state.busy },
          editing ? 'Save' : 'Add credential',
        ),
        editing
          ? h(
              'button',
              {
                type: 'button',
                id: 'credential-cancel',
                onclick: () => {
                  reset();
                  load();
                },
              },
              'Cancel',
            )
          : null,
      ),
    ),
  );
}

function usersPanel() {
  const form = forms.user;
  const editing = form.editing;
  const v = form.values;
  const reset = () => {
    form.values = formState({
      username: '',
      password: '',
      idWeb: '',
      webDescription: '',
      v16: true,
      v17: true,
    }).values;
    form.editing = null;
  };
  const input = () => ({
    username: v.username,
    password: v.password,
    idWeb: /^\d+$/.test(String(v.idWeb).trim()) ? Number(v.idWeb) : v.idWeb,
    webDescription: v.webDescription,
    versions: [...(v.v16 ? ['1.6'] : []), ...(v.v17 ? ['1.7'] : [])],
  });
  return h(
    'div',
    { class: 'panel', id: 'users-panel' },
    h('h2', null, `GetAccessToken users (${state.users.length})`),
    !state.loaded
      ? h('div', { class: 'empty' }, 'Loading…')
      : state.users.length
        ? h(
            'table',
            { id: 'user-table' },
            h(
              'thead',
              null,
              h(
                'tr',
                null,
                ['Username', 'IDWeb', 'WebDescription', 'Versions', ''].map((t) => h('th', null, t)),
              ),
            ),
            h(
              'tbody',
              null,
              state.users.map((u) =>
                h(
                  'tr',
                  { 'data-id': u.username, class: editing === u.username ? 'selected' : '' },
                  h('td', { class: 'mono' }, u.username),
                  h('td', null, u.idWeb),
                  h('td', null, u.webDescription),
                  h('td', null, u.versions.join(', ')),
                  h(
                    'td',
                    { class: 'row-actions' },
                    h(
                      'button',
                      {
                        type: 'button',
                        id: `edit-user-${u.username}`,
                        onclick: () => {
                          form.editing = u.username;
                          form.error = '';
                          form.errorPath = '';
                          form.values = {
                            username: u.username,
                            password: '',
                            idWeb: String(u.idWeb),
                            webDescription: u.webDescription,
                            v16: u.versions.includes('1.6'),
                            v17: u.versions.includes('1.7'),
                          };
                          load();
                        },
                      },
                      'Edit',
                    ),
                    confirmButton(`delete-user-${u.username}`, 'Delete', () =>
                      act(`User ${u.username} deleted`, () =>
                        send('DELETE', `/users/${encodeURIComponent(u.username)}`),
                      ),
                    ),
                  ),
                ),
              ),
            ),
          )
        : h(
            'div',
            { class: 'empty' },
            'No users yet: add one below (or POST /__admin/users, --config, --scenario).',
          ),
    h(
      'form',
      {
        class: 'setup-form',
        id: 'user-form',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          submit(
            form,
            (/** @type {User} */ u) =>
              editing
                ? `User ${u.username} changed`
                : `User ${u.username} added (API ${u.versions.join(', ')})`,
            () =>
              /** @type {Promise<User>} */ (
                editing
                  ? send('PUT', `/users/${encodeURIComponent(editing)}`, input())
                  : send('POST', '/users', input())
              ),
            reset,
          );
        },
      },
      h('h3', null, editing ? `Edit user ${editing}` : 'Add a user'),
      h(
        'div',
        { class: 'fields' },
        field('user', form, 'username', 'Username', { readonly: editing !== null }),
        field(
          'user',
          form,
          'password',
          'Password',
          { type: 'password', autocomplete: 'off' },
          editing ? 'the admin API never shows a password: type it again' : '',
        ),
        field('user', form, 'idWeb', 'IDWeb', { inputmode: 'numeric' }),
        field('user', form, 'webDescription', 'WebDescription'),
        field('user', form, 'v16', 'API 1.6', { type: 'checkbox' }),
        field('user', form, 'v17', 'API 1.7', { type: 'checkbox' }),
      ),
      formError('user', form),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'primary', id: 'user-submit', disabled: state.busy },
          editing ? 'Save' : 'Add user',
        ),
        editing
          ? h(
              'button',
              {
                type: 'button',
                id: 'user-cancel',
                onclick: () => {
                  reset();
                  load();
                },
              },
              'Cancel',
            )
          : null,
      ),
    ),
  );
}

function trustPanel() {
  const form = forms.trust;
  return h(
    'div',
    { class: 'panel', id: 'trust-panel' },
    h('h2', null, `Trusted certificates (${state.trust.length})`),
    state.trust.length
      ? h(
          'table',
          { id: 'trust-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['Subject', 'Valid to', 'CA', 'From', ''].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            state.trust.map((t) =>
              h(
                'tr',
                { 'data-id': t.fingerprint256, title: `SHA-256 ${t.fingerprint256}` },
                h('td', { class: 'wrap' }, t.subject),
                h('td', { class: 'mono' }, t.validTo),
                h('td', null, t.ca ? 'yes' : 'no'),
                h('td', { class: 'muted' }, t.source),
                h(
                  'td',
                  { class: 'row-actions' },
                  confirmButton(`untrust-${t.fingerprint256.replaceAll(':', '')}`, 'Remove', () =>
                    act(`No longer trusted: ${t.subject}`, () =>
                      send('DELETE', `/trust/${encodeURIComponent(t.fingerprint256)}`),
                    ),
                  ),
                ),
              ),
            ),
          ),
        )
      : h('div', { class: 'empty' }, state.loaded ? 'Only the system roots are trusted.' : 'Loading…'),
    h(
      'form',
      {
        class: 'setup-form',
        id: 'trust-form',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          submit(
            form,
            (r) => `Trusted: ${r.added.map((c) => c.subject).join(', ')}`,
            () =>
              /** @type {Promise<{ added: import('./state.js').TrustedCertificate[] }>} */ (
                send('POST', '/trust', { pem: form.values.pem })
              ),
            () => {
              form.values.pem = '';
            },
          );
        },
      },
      h('h3', null, 'Trust a CA for https:// receivers'),
      field('trust', form, 'pem', 'PEM', {
        rows: 4,
        placeholder: '-----BEGIN CERTIFICATE-----',
        spellcheck: 'false',
      }),
      formError('trust', form),
      h(
        'div',
        { class: 'actions' },
        h('button', { type: 'submit', class: 'primary', id: 'trust-submit', disabled: state.busy }, 'Trust'),
      ),
    ),
  );
}

function faultsPanel() {
  const form = forms.fault;
  const v = form.values;
  const input = () => ({
    kind: v.kind,
    ...(v.version ? { version: v.version } : {}),
    ...(v.variant ? { variant: v.variant } : {}),
    ...(v.kind === 'status' ? { status: Number(v.status) } : {}),
    ...(v.kind === 'delay' ? { delayMs: Number(v.delayMs) } : {}),
    ...(String(v.count).trim() ? { count: Number(v.count) } : {}),
  });
  /** @param {string} key @param {string} label @param {Array<[string, string]>} options */
  const choose = (key, label, options) =>
    h(
      'div',
      { class: 'field' },
      h('label', { for: `fault-${key}` }, label),
      select(
        {
          id: `fault-${key}`,
          onchange: (/** @type {Event} */ e) => {
            v[key] = /** @type {HTMLSelectElement} */ (e.target).value;
            load();
          },
        },
        options,
        String(v[key]),
      ),
    );
  return h(
    'div',
    { class: 'panel', id: 'faults-panel' },
    h('h2', null, `GetAccessToken faults (${state.faults.length})`),
    state.faults.length
      ? h(
          'table',
          { id: 'fault-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['ID', 'Kind', 'Applies to', 'Left', ''].map((t) => h('th', null, t)),
            ),
          ),
          h(
            'tbody',
            null,
            state.faults.map((f) =>
              h(
                'tr',
                { 'data-id': f.id },
                h('td', { class: 'mono' }, f.id),
                h(
                  'td',
                  null,
                  f.kind === 'status'
                    ? `status ${f.status}`
                    : f.kind === 'delay'
                      ? `delay ${f.delayMs} ms`
                      : f.kind,
                ),
                h('td', null, `${f.version ?? 'any version'} · ${f.variant ?? 'any variant'}`),
                h(
                  'td',
                  null,
                  f.remaining === null
                    ? `${(f.fraction ?? 0) * 100}% of calls`
                    : `${f.remaining} call${f.remaining === 1 ? '' : 's'}`,
                ),
                h(
                  'td',
                  { class: 'row-actions' },
                  h(
                    'button',
                    {
                      type: 'button',
                      id: `remove-fault-${f.id}`,
                      onclick: () =>
                        act(`Fault ${f.id} removed`, () =>
                          send('DELETE', `/faults/${encodeURIComponent(f.id)}`),
                        ),
                    },
                    'Remove',
                  ),
                ),
              ),
            ),
          ),
        )
      : h(
          'div',
          { class: 'empty' },
          state.loaded ? 'No fault: every GetAccessToken call is answered normally.' : 'Loading…',
        ),
    h(
      'form',
      {
        class: 'setup-form',
        id: 'fault-form',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          submit(
            form,
            (/** @type {any} */ f) => `Fault ${f.id} added (${f.kind})`,
            () => send('POST', '/faults', input()),
            () => {},
          );
        },
      },
      h('h3', null, 'Add a fault to the next GetAccessToken calls'),
      h(
        'div',
        { class: 'fields' },
        choose('kind', 'Kind', [
          ['status', 'HTTP status'],
          ['delay', 'delay'],
          ['malformed', 'malformed body'],
          ['drop', 'drop the connection'],
        ]),
        choose('version', 'Version', [
          ['', 'any'],
          ['1.6', '1.6'],
          ['1.7', '1.7'],
        ]),
        choose('variant', 'Variant', [
          ['', 'any'],
          ['json', 'json'],
          ['xml', 'xml'],
          ['soap', 'soap (1.1 and 1.2)'],
          ['soap11', 'soap11'],
          ['soap12', 'soap12'],
        ]),
        v.kind === 'status' ? field('fault', form, 'status', 'Status', { inputmode: 'numeric' }) : null,
        v.kind === 'delay' ? field('fault', form, 'delayMs', 'Delay (ms)', { inputmode: 'numeric' }) : null,
        field('fault', form, 'count', 'Calls', { inputmode: 'numeric' }, 'how many calls it affects'),
      ),
      formError('fault', form),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'primary', id: 'fault-submit', disabled: state.busy },
          'Add fault',
        ),
        state.faults.length
          ? h(
              'button',
              {
                type: 'button',
                id: 'remove-all-faults',
                onclick: () => act('Every fault removed', () => send('DELETE', '/faults')),
              },
              'Remove all',
            )
          : null,
      ),
    ),
  );
}

/** The set-up panels in page order. */
const PANELS = [credentialsPanel, usersPanel, trustPanel, faultsPanel, outagesPanel];

export function renderSetup() {
  return h(
    'section',
    { id: 'setup', class: 'grid2' },
    PANELS.map((panel) => panel()),
  );
}
