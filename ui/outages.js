// @ts-check
// The outages panel of the set-up page: simulated outages of the receiver (POST /__admin/outages).
// Attempts inside one fail as simulated_outage and never reach the receiver; the timeline of each
// notification shows them with the outage's id.

import { h, select } from './dom.js';
import { field, formError, formState, submit } from './forms.js';
import { act, load, send, state } from './state.js';

/** @typedef {import('./state.js').Outage} Outage */

const form = formState({ credentialId: '', mode: 'attempts', attempts: '2', for: 'PT1H', note: '' });

/** @param {Outage} o */
function extent(o) {
  if (o.attempts !== null)
    return `next ${o.attempts} attempt${o.attempts === 1 ? '' : 's'} (${o.remaining} left)`;
  return `${o.from} → ${o.until ?? 'until removed'}`;
}

function input() {
  const v = form.values;
  return {
    ...(v.credentialId ? { credentialId: v.credentialId } : {}),
    ...(v.mode === 'attempts' ? { attempts: Number(v.attempts) } : {}),
    ...(v.mode === 'for' ? { for: String(v.for).trim() } : {}),
    ...(String(v.note).trim() ? { note: String(v.note).trim() } : {}),
  };
}

/** The outages panel: the list with its status, and a form to add one. */
export function outagesPanel() {
  const v = form.values;
  const rows = state.outages.map((o) =>
    h(
      'tr',
      { 'data-id': o.id, class: o.status === 'ended' ? 'muted' : '' },
      h('td', { class: 'mono' }, o.id),
      h('td', { class: 'mono' }, o.credentialId ?? 'every credential'),
      h('td', { class: 'mono wrap' }, extent(o)),
      h('td', null, o.status),
      h('td', null, String(o.failedAttempts)),
      h('td', null, o.note ?? ''),
      h(
        'td',
        { class: 'row-actions' },
        h(
          'button',
          {
            type: 'button',
            id: `remove-outage-${o.id}`,
            onclick: () =>
              act(`Outage ${o.id} removed`, () => send('DELETE', `/outages/${encodeURIComponent(o.id)}`)),
          },
          'Remove',
        ),
      ),
    ),
  );
  return h(
    'div',
    { class: 'panel', id: 'outages-panel' },
    h('h2', null, `Receiver outages (${state.outages.length})`),
    rows.length
      ? h(
          'table',
          { id: 'outage-table' },
          h(
            'thead',
            null,
            h(
              'tr',
              null,
              ['ID', 'Credential', 'Covers', 'Status', 'Failed', 'Note', ''].map((t) => h('th', null, t)),
            ),
          ),
          h('tbody', null, rows),
        )
      : h(
          'div',
          { class: 'empty' },
          state.loaded
            ? 'No outage: every attempt goes to its receiver. An outage fails attempts here, without touching the receiver, to show redeliveries.'
            : 'Loading…',
        ),
    h(
      'form',
      {
        class: 'setup-form',
        id: 'outage-form',
        onsubmit: (/** @type {Event} */ e) => {
          e.preventDefault();
          submit(
            form,
            (o) => `Outage ${o.id} added (${o.credentialId ?? 'every credential'})`,
            () =>
              /** @type {Promise<import('../src/client/types.js').Outage>} */ (
                send('POST', '/outages', input())
              ),
            () => {},
          );
        },
      },
      h('h3', null, 'Simulate an outage of the receiver'),
      h(
        'div',
        { class: 'fields' },
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'outage-credentialId' }, 'Credential'),
          select(
            {
              id: 'outage-credentialId',
              onchange: (/** @type {Event} */ e) => {
                v.credentialId = /** @type {HTMLSelectElement} */ (e.target).value;
              },
            },
            [
              ['', 'every credential'],
              ...state.credentials.map((c) => /** @type {[string, string]} */ ([c.id, c.id])),
            ],
            String(v.credentialId),
          ),
        ),
        h(
          'div',
          { class: 'field' },
          h('label', { for: 'outage-mode' }, 'Fails'),
          select(
            {
              id: 'outage-mode',
              onchange: (/** @type {Event} */ e) => {
                v.mode = /** @type {HTMLSelectElement} */ (e.target).value;
                load();
              },
            },
            [
              ['attempts', 'the next attempts'],
              ['for', 'for a while (emulator time)'],
              ['open', 'until removed'],
            ],
            String(v.mode),
          ),
        ),
        v.mode === 'attempts'
          ? field('outage', form, 'attempts', 'Attempts', { inputmode: 'numeric' }, 'how many attempts fail')
          : null,
        v.mode === 'for'
          ? field('outage', form, 'for', 'Duration', {}, 'PT3H, 90m: from now, emulator time')
          : null,
        field('outage', form, 'note', 'Note', {}, 'shown in the attempts it fails'),
      ),
      formError('outage', form),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          { type: 'submit', class: 'primary', id: 'outage-submit', disabled: state.busy },
          'Add outage',
        ),
        state.outages.length
          ? h(
              'button',
              {
                type: 'button',
                id: 'remove-all-outages',
                onclick: () => act('Every outage removed', () => send('DELETE', '/outages')),
              },
              'Remove all',
            )
          : null,
      ),
    ),
  );
}
