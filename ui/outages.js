// @ts-check
// The outages panel of the set-up page, described for panel.js: simulated outages of the receiver
// (POST /__admin/outages). Attempts inside one fail as simulated_outage and never reach the receiver;
// the timeline of each notification shows them with the outage's id.

import { call, whole } from './panel.js';
import { state } from './state.js';

/** @typedef {import('./state.js').Outage} Outage */

/** @param {Outage} o */
function extent(o) {
  if (o.attempts !== null)
    return `next ${o.attempts} attempt${o.attempts === 1 ? '' : 's'} (${o.remaining} left)`;
  return `${o.from} → ${o.until ?? 'until removed'}`;
}

/** @type {import('./panel.js').PanelSpec<Outage, Outage>} */
export const outages = {
  name: 'outage',
  panelId: 'outages-panel',
  title: 'Receiver outages',
  rows: () => state.outages,
  key: (o) => o.id,
  rowClass: (o) => (o.status === 'ended' ? 'muted' : ''),
  columns: [
    { head: 'ID', cls: 'mono', cell: (o) => o.id },
    { head: 'Credential', cls: 'mono', cell: (o) => o.credentialId ?? 'every credential' },
    { head: 'Covers', cls: 'mono wrap', cell: extent },
    { head: 'Status', cell: (o) => o.status },
    { head: 'Failed', cell: (o) => String(o.failedAttempts) },
    { head: 'Note', cell: (o) => o.note ?? '' },
  ],
  empty:
    'No outage: every attempt goes to its receiver. An outage fails attempts here, without touching the receiver, to show redeliveries.',
  initial: { credentialId: '', mode: 'attempts', attempts: '2', for: 'PT1H', note: '' },
  fields: [
    {
      key: 'credentialId',
      label: 'Credential',
      type: 'select',
      options: () => [
        ['', 'every credential'],
        ...state.credentials.map((c) => /** @type {[string, string]} */ ([c.id, c.id])),
      ],
    },
    {
      key: 'mode',
      label: 'Fails',
      type: 'select',
      options: { attempts: 'the next attempts', for: 'for a while (emulator time)', open: 'until removed' },
    },
    {
      key: 'attempts',
      label: 'Attempts',
      type: 'number',
      hint: 'how many attempts fail',
      when: (v) => v.mode === 'attempts',
    },
    {
      key: 'for',
      label: 'Duration',
      hint: 'PT3H, 90m: from now, emulator time',
      when: (v) => v.mode === 'for',
    },
    { key: 'note', label: 'Note', hint: 'shown in the attempts it fails' },
  ],
  formTitle: () => 'Simulate an outage of the receiver',
  addLabel: 'Add outage',
  keepValues: true,
  save: (v) =>
    call('addOutage', {
      body: {
        ...(v.credentialId ? { credentialId: String(v.credentialId) } : {}),
        ...(v.mode === 'attempts' ? { attempts: whole(v.attempts) } : {}),
        ...(v.mode === 'for' ? { for: String(v.for).trim() } : {}),
        ...(String(v.note).trim() ? { note: String(v.note).trim() } : {}),
      },
    }),
  saved: (o) => `Outage ${o.id} added (${o.credentialId ?? 'every credential'})`,
  remove: {
    label: 'Remove',
    confirm: false,
    name: (o) => `outage ${o.id}`,
    call: (o) => call('deleteOutage', { params: { id: o.id } }),
    said: (o) => `Outage ${o.id} removed`,
  },
  removeAll: { call: () => call('clearOutages', {}), said: 'Every outage removed' },
};
