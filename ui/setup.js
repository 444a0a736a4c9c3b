// @ts-check
// The set-up view: credentials (with their delivery figures), GetAccessToken users, trusted CAs,
// GetAccessToken faults and receiver outages. Each is a description of its resource drawn by
// panel.js (decision 0104): a new kind of set-up is one more entry in PANELS.

import { renderCharts } from './charts.js';
import { fullTime, h, shortTime } from './dom.js';
import { outages } from './outages.js';
import { call, listOf, panel, whole } from './panel.js';
import { state } from './state.js';

/** @typedef {import('./state.js').Credential} Credential */

/** @param {Credential['filters']} filters */
function filterText(filters) {
  const parts = [];
  if (filters.pcc?.length) parts.push(`PCC ${filters.pcc.join(', ')}`);
  if (filters.idWeb?.length) parts.push(`IdWeb ${filters.idWeb.join(', ')}`);
  return parts.length ? parts.join(' and ') : h('span', { class: 'muted' }, 'every booking');
}

/** @param {number | null} rate */
const percent = (rate) => (rate === null ? '—' : `${Math.round(rate * 1000) / 10}%`);

const credentials = panel({
  name: 'credential',
  panelId: 'credentials-panel',
  title: 'Credentials',
  rows: () => {
    const stats = new Map(state.stats.map((s) => [s.credentialId, s]));
    return state.credentials.map((c) => ({ ...c, stats: stats.get(c.id) }));
  },
  key: (c) => c.id,
  scroll: true,
  columns: [
    { head: 'ID', cls: 'mono', cell: (c) => c.id },
    { head: 'URL', cls: 'mono wrap', cell: (c) => c.url },
    { head: 'ApiKey', cls: 'mono wrap', cell: (c) => c.apiKey },
    { head: 'Filters', cls: 'wrap', cell: (c) => filterText(c.filters) },
    { head: 'Attempts', cls: 'num stat-attempts', cell: (c) => `${c.stats?.attempts ?? 0}` },
    {
      head: 'Success',
      cls: 'num stat-rate',
      cell: (c) => percent(c.stats?.successRate ?? null),
      title: ({ stats: s }) => (s ? `${s.successfulAttempts} of ${s.attempts} attempts answered 200` : ''),
    },
    {
      head: 'Last failure',
      cls: 'wrap stat-failure',
      cell: ({ stats }) => {
        const last = stats?.lastFailure;
        return last
          ? `${last.statusCode ?? last.outcome} · ${last.notificationId} #${last.attempt} · ${fullTime(last.at)}`
          : '—';
      },
      title: (c) => c.stats?.lastFailure?.message ?? '',
    },
    {
      head: 'Next batch',
      cls: 'mono stat-next',
      cell: (c) => (c.stats?.nextBatchAt ? shortTime(c.stats.nextBatchAt) : '—'),
    },
    { head: 'Warnings', cls: 'wrap muted', cell: (c) => c.warnings.join('; ') },
  ],
  empty: 'No credentials yet: add one below (or POST /__admin/credentials, --config, --scenario).',
  initial: { id: '', apiKey: '', url: '', pcc: '', idWeb: '' },
  fields: [
    { key: 'id', label: 'ID', placeholder: 'c1, c2… when empty', fixed: true },
    { key: 'apiKey', label: 'ApiKey', placeholder: 'sent as Authorization: Bearer <ApiKey>' },
    { key: 'url', label: 'URL', placeholder: 'https://localhost:8443/reportbo' },
    { key: 'pcc', label: 'PCC filter', placeholder: 'AAA1, BBB2 (empty: every PCC)' },
    { key: 'idWeb', label: 'IdWeb filter', placeholder: '1001, 1002 (empty: every IdWeb)' },
  ],
  formTitle: (editing) => (editing ? `Edit credential ${editing}` : 'Add a credential'),
  addLabel: 'Add credential',
  save: (v, editing) => {
    const body = {
      ...(String(v.id).trim() && !editing ? { id: String(v.id).trim() } : {}),
      apiKey: String(v.apiKey),
      url: String(v.url),
      filters: {
        ...(String(v.pcc).trim() ? { pcc: listOf(v.pcc) } : {}),
        ...(String(v.idWeb).trim() ? { idWeb: listOf(v.idWeb).map(whole) } : {}),
      },
    };
    return editing
      ? call('updateCredential', { params: { id: editing }, body })
      : call('addCredential', { body });
  },
  saved: (c, editing) =>
    editing ? `Credential ${c.id} changed (new notifications use it)` : `Credential ${c.id} added`,
  edit: (c) => ({
    id: c.id,
    apiKey: c.apiKey,
    url: c.url,
    pcc: (c.filters.pcc ?? []).join(', '),
    idWeb: (c.filters.idWeb ?? []).join(', '),
  }),
  remove: {
    label: 'Delete',
    confirm: true,
    name: (c) => `credential ${c.id}`,
    call: (c) => call('deleteCredential', { params: { id: c.id } }),
    said: (c) => `Credential ${c.id} deleted; its pending notifications are cancelled`,
  },
});

const users = panel({
  name: 'user',
  panelId: 'users-panel',
  title: 'GetAccessToken users',
  rows: () => state.users,
  key: (u) => u.username,
  columns: [
    { head: 'Username', cls: 'mono', cell: (u) => u.username },
    { head: 'IDWeb', cell: (u) => u.idWeb },
    { head: 'WebDescription', cell: (u) => u.webDescription },
    { head: 'Versions', cell: (u) => u.versions.join(', ') },
  ],
  empty: 'No users yet: add one below (or POST /__admin/users, --config, --scenario).',
  initial: { username: '', password: '', idWeb: '', webDescription: '', v16: true, v17: true },
  fields: [
    { key: 'username', label: 'Username', fixed: true },
    {
      key: 'password',
      label: 'Password',
      type: 'password',
      hint: (editing) => (editing ? 'the admin API never shows a password: type it again' : ''),
    },
    { key: 'idWeb', label: 'IDWeb', type: 'number' },
    { key: 'webDescription', label: 'WebDescription' },
    { key: 'v16', label: 'API 1.6', type: 'checkbox', path: 'versions' },
    { key: 'v17', label: 'API 1.7', type: 'checkbox', path: 'versions' },
  ],
  formTitle: (editing) => (editing ? `Edit user ${editing}` : 'Add a user'),
  addLabel: 'Add user',
  save: (v, editing) => {
    const body = {
      username: String(v.username),
      password: String(v.password),
      idWeb: whole(v.idWeb),
      webDescription: String(v.webDescription),
      versions: [
        ...(v.v16 ? /** @type {const} */ (['1.6']) : []),
        ...(v.v17 ? /** @type {const} */ (['1.7']) : []),
      ],
    };
    return editing ? call('updateUser', { params: { username: editing }, body }) : call('addUser', { body });
  },
  saved: (u, editing) =>
    editing ? `User ${u.username} changed` : `User ${u.username} added (API ${u.versions.join(', ')})`,
  edit: (u) => ({
    username: u.username,
    password: '',
    idWeb: String(u.idWeb),
    webDescription: u.webDescription,
    v16: u.versions.includes('1.6'),
    v17: u.versions.includes('1.7'),
  }),
  remove: {
    label: 'Delete',
    confirm: true,
    name: (u) => `user ${u.username}`,
    call: (u) => call('deleteUser', { params: { username: u.username } }),
    said: (u) => `User ${u.username} deleted`,
  },
});

const trust = panel({
  name: 'trust',
  panelId: 'trust-panel',
  title: 'Trusted certificates',
  rows: () => state.trust,
  key: (t) => t.fingerprint256,
  rowTitle: (t) => `SHA-256 ${t.fingerprint256}`,
  columns: [
    { head: 'Subject', cls: 'wrap', cell: (t) => t.subject },
    { head: 'Valid to', cls: 'mono', cell: (t) => t.validTo },
    { head: 'CA', cell: (t) => (t.ca ? 'yes' : 'no') },
    { head: 'From', cls: 'muted', cell: (t) => t.source },
  ],
  empty: 'Only the system roots are trusted.',
  initial: { pem: '' },
  fields: [{ key: 'pem', label: 'PEM', type: 'textarea', placeholder: '-----BEGIN CERTIFICATE-----' }],
  formTitle: () => 'Trust a CA for https:// receivers',
  addLabel: 'Trust',
  save: (v) => call('trust', { body: { pem: String(v.pem) } }),
  saved: (r) => `Trusted: ${r.added.map((c) => c.subject).join(', ')}`,
  remove: {
    label: 'Remove',
    confirm: true,
    name: (t) => `the certificate ${t.subject}`,
    call: (t) => call('untrust', { params: { fingerprint: t.fingerprint256 } }),
    said: (t) => `No longer trusted: ${t.subject}`,
  },
});

const faults = panel({
  name: 'fault',
  panelId: 'faults-panel',
  title: 'GetAccessToken faults',
  rows: () => state.faults,
  key: (f) => f.id,
  columns: [
    { head: 'ID', cls: 'mono', cell: (f) => f.id },
    {
      head: 'Kind',
      cell: (f) =>
        f.kind === 'status' ? `status ${f.status}` : f.kind === 'delay' ? `delay ${f.delayMs} ms` : f.kind,
    },
    { head: 'Applies to', cell: (f) => `${f.version ?? 'any version'} · ${f.variant ?? 'any variant'}` },
    {
      head: 'Left',
      cell: (f) =>
        f.remaining === null
          ? `${(f.fraction ?? 0) * 100}% of calls`
          : `${f.remaining} call${f.remaining === 1 ? '' : 's'}`,
    },
  ],
  empty: 'No fault: every GetAccessToken call is answered normally.',
  initial: { kind: 'status', version: '', variant: '', status: '503', delayMs: '2000', count: '1' },
  fields: [
    {
      key: 'kind',
      label: 'Kind',
      type: 'select',
      options: {
        status: 'HTTP status',
        delay: 'delay',
        malformed: 'malformed body',
        drop: 'drop the connection',
      },
    },
    {
      key: 'version',
      label: 'Version',
      type: 'select',
      options: { '': 'any', 1.6: '1.6', 1.7: '1.7' },
    },
    {
      key: 'variant',
      label: 'Variant',
      type: 'select',
      options: {
        '': 'any',
        json: 'json',
        xml: 'xml',
        soap: 'soap (1.1 and 1.2)',
        soap11: 'soap11',
        soap12: 'soap12',
      },
    },
    { key: 'status', label: 'Status', type: 'number', when: (v) => v.kind === 'status' },
    { key: 'delayMs', label: 'Delay (ms)', type: 'number', when: (v) => v.kind === 'delay' },
    { key: 'count', label: 'Calls', type: 'number', hint: 'how many calls it affects' },
  ],
  formTitle: () => 'Add a fault to the next GetAccessToken calls',
  addLabel: 'Add fault',
  keepValues: true,
  save: (v) =>
    call('addFault', {
      body: {
        kind: String(v.kind),
        ...(v.version ? { version: String(v.version) } : {}),
        ...(v.variant ? { variant: String(v.variant) } : {}),
        ...(v.kind === 'status' ? { status: whole(v.status) } : {}),
        ...(v.kind === 'delay' ? { delayMs: whole(v.delayMs) } : {}),
        ...(String(v.count).trim() ? { count: whole(v.count) } : {}),
      },
    }),
  saved: (f) => `Fault ${f.id} added (${f.kind})`,
  remove: {
    label: 'Remove',
    confirm: false,
    name: (f) => `fault ${f.id}`,
    call: (f) => call('deleteFault', { params: { id: f.id } }),
    said: (f) => `Fault ${f.id} removed`,
  },
  removeAll: { call: () => call('clearFaults', {}), said: 'Every fault removed' },
});

/**
 * The set-up panels in page order: the credentials (ten columns with their figures) and their charts
 * take a whole row each at the top; the others share rows two by two.
 */
const PANELS = [credentials, renderCharts, users, trust, faults, panel(outages)];

export function renderSetup() {
  return h(
    'section',
    { id: 'setup', class: 'grid2' },
    PANELS.map((draw) => draw()),
  );
}
