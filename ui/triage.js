// @ts-check
// Failures grouped by cause (GET /__admin/triage, decision 0202): the failing notifications of each
// credential grouped by the cause of their last attempt, with one action to retry a group. Read when
// the tab opens and again within 300 ms of an attempt or a new notification while it is open.

import { fullTime, h } from './dom.js';
import { routeHash } from './route.js';
import { ApiError, api, focusWhenDrawn, loadSoonWith, post, render, say, state } from './state.js';

/**
 * @typedef {import('../src/client/types.js').Triage} Triage
 * @typedef {import('../src/client/types.js').ResendFailedResult} ResendFailedResult
 */

/** The last answer, and the group a retry is running for. */
const view = {
  /** @type {Triage | null} */
  triage: null,
  retrying: '',
};

/** Reads the groups again. */
export async function loadTriage() {
  view.triage = /** @type {Triage} */ (await api('/triage'));
  render();
}

/** Reads the groups again within 300 ms of a change, however many follow. */
export const triageSoon = () => loadSoonWith('triage', loadTriage, 300);

/** The count on the tab: failing notifications, once read. */
export const triageCount = () => (view.triage ? view.triage.failing : '');

/** Retries the group `key` (each member once) and says what it did. @param {string} key */
async function retryGroup(key) {
  view.retrying = key;
  render();
  try {
    const r = /** @type {ResendFailedResult} */ (await post('/triage/retry', { key }));
    const parts = [];
    if (r.retried.length) parts.push(`${r.retried.length} retried now`);
    if (r.resent.length) parts.push(`${r.resent.length} resent as ${r.resent.map((n) => n.id).join(', ')}`);
    if (r.skipped.length)
      parts.push(`${r.skipped.length} skipped (${r.skipped.map((s) => s.message).join(' ')})`);
    say(`Group ${key}: ${parts.join('; ') || 'nothing to retry'}.`, false, 'triage');
    focusWhenDrawn('#triage-title');
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), true, err instanceof ApiError ? 'triage' : '');
  } finally {
    view.retrying = '';
    await loadTriage().catch(() => {});
  }
}

/** A notification id as a link to its view. @param {string} id */
const link = (id) => h('a', { href: routeHash('notifications', id), class: 'mono' }, id);

export function renderTriage() {
  const t = view.triage;
  return h(
    'section',
    { id: 'triage', class: 'panel' },
    h('h2', { id: 'triage-title', tabindex: '-1' }, 'Failures by cause'),
    h(
      'p',
      { class: 'muted' },
      "Every failing notification (exhausted, or pending after a failed attempt, and not covered by a resend) grouped by its credential and the cause of its last attempt: the HTTP status with the receiver's answer (numbers shown as #), or the failure without a status. Retrying a group resends its exhausted notifications and gives its pending ones one attempt now, each once.",
    ),
    // The answer lists the largest groups (decision 0236): say so when there are more.
    t && t.groupCount > t.groups.length
      ? h('p', { id: 'triage-more' }, `The ${t.groups.length} largest of ${t.groupCount} groups.`)
      : null,
    !t
      ? h('div', { class: 'empty' }, 'Loading…')
      : t.groups.length === 0
        ? h('div', { class: 'empty', id: 'triage-empty' }, 'No failing delivery.')
        : h(
            'div',
            { class: 'table-scroll', tabindex: '0', role: 'region', 'aria-label': 'Failure groups' },
            h(
              'table',
              { id: 'triage-table' },
              h(
                'thead',
                null,
                h(
                  'tr',
                  null,
                  ['Credential', 'Cause', 'Failing', 'First seen', 'Last seen', 'Sample', ''].map((c) =>
                    h('th', { scope: 'col' }, c),
                  ),
                ),
              ),
              h(
                'tbody',
                null,
                t.groups.map((g, i) =>
                  h(
                    'tr',
                    { 'data-key': g.key },
                    h('td', { class: 'mono' }, g.credentialId),
                    h('td', { class: 'mono cause' }, g.cause.key),
                    h('td', null, `${g.count} (${g.exhausted} exhausted, ${g.pending} pending)`),
                    h('td', null, fullTime(g.firstSeen)),
                    h('td', null, fullTime(g.lastSeen)),
                    h('td', null, link(g.sample)),
                    h(
                      'td',
                      null,
                      h(
                        'button',
                        {
                          type: 'button',
                          id: `triage-retry-${i}`,
                          disabled: view.retrying !== '' || state.busy,
                          'aria-label': `Retry these ${g.count}: ${g.credentialId} failing with ${g.cause.key}`,
                          onclick: () => retryGroup(g.key),
                        },
                        `Retry these ${g.count}`,
                      ),
                    ),
                  ),
                ),
              ),
            ),
          ),
  );
}
