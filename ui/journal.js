// @ts-check
// The GetAccessToken journal: one row per call, newest first; a row opens the call as the client
// sent it and got it back (GET /__admin/requests/:id).

import { fullTime, h, pill, prettyJson } from './dom.js';
import { go, routeHash } from './route.js';
import { state } from './state.js';

/** @typedef {import('./state.js').Exchange} Exchange */

/** @param {string} id @param {string} title @param {Array<[string, string]>} headers @param {string} body @param {boolean} truncated @param {string} first */
function message(id, title, first, headers, body, truncated) {
  return h(
    'div',
    { class: 'message', id },
    h('h3', null, title),
    h(
      'pre',
      { class: 'http', tabindex: '0', role: 'group', 'aria-label': `${title}: start line and headers` },
      [first, ...headers.map(([k, v]) => `${k}: ${v}`)].join('\n'),
    ),
    h(
      'pre',
      { class: 'http-body', tabindex: '0', role: 'group', 'aria-label': `${title}: body` },
      (body && prettyJson(body)) || '(empty body)',
    ),
    // Indented for reading; the bytes as they went over the wire stay one click away.
    body && prettyJson(body) !== body
      ? h(
          'details',
          { class: 'as-sent' },
          h('summary', null, 'As sent'),
          h(
            'pre',
            { class: 'http-body-raw', tabindex: '0', role: 'group', 'aria-label': `${title}: body as sent` },
            body,
          ),
        )
      : null,
    truncated ? h('div', { class: 'muted' }, 'Only the first 4 KiB are kept.') : null,
  );
}

function renderExchange() {
  const d = state.journalDetail;
  if (!state.journalSelected) return null;
  if (!d || d.id !== state.journalSelected)
    return h(
      'div',
      { class: 'panel', id: 'journal-detail' },
      h(
        'div',
        { class: 'empty' },
        state.journalMissing === state.journalSelected
          ? `${state.journalSelected} is not in the journal: never made, or dropped since (a reset, or past the journal's size).`
          : `Loading ${state.journalSelected}…`,
      ),
    );
  const x = d.exchange;
  return h(
    'div',
    { class: 'panel', id: 'journal-detail', 'data-id': d.id },
    h(
      'div',
      { class: 'body' },
      h(
        'div',
        { class: 'title' },
        h('strong', { class: 'mono' }, d.id),
        h('span', null, `${d.version} ${d.variant}`),
        h('span', { class: 'mono' }, d.username ?? '(no user)'),
        h('span', { class: 'muted' }, fullTime(d.at)),
        h('button', { type: 'button', id: 'journal-close', onclick: () => close() }, 'Close'),
      ),
      x
        ? h(
            'div',
            { class: 'grid2' },
            message(
              'journal-request',
              `Request (${x.request.bodyBytes} bytes)`,
              `${x.request.method} ${x.request.target}`,
              x.request.headers,
              x.request.body,
              x.request.truncated,
            ),
            message(
              'journal-response',
              'Response',
              `HTTP ${x.response.status}`,
              x.response.headers,
              x.response.body,
              x.response.truncated,
            ),
          )
        : h(
            'div',
            { class: 'muted' },
            "Only this call's summary is kept: the journal keeps the request and response of its newest 500 calls (and of none that did not come over HTTP).",
          ),
    ),
  );
}

// The route (dashboard.js) opens and closes calls: a link to `#journal/<id>` opens the same call.
const close = () => go(routeHash('journal'));

export function renderJournal() {
  const rows = [...state.journal].reverse();
  return h(
    'section',
    { id: 'journal' },
    renderExchange(),
    h(
      'div',
      { class: 'panel' },
      h('h2', null, `GetAccessToken calls (${rows.length}, newest first)`),
      !state.loaded
        ? h('div', { class: 'empty' }, 'Loading…')
        : rows.length
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
                    {
                      'data-id': e.id,
                      class: `row${e.id === state.journalSelected ? ' selected' : ''}`,
                      title: 'open the request and response',
                      onclick: () => go(routeHash('journal', e.id)),
                    },
                    h(
                      'td',
                      { class: 'mono' },
                      h(
                        'a',
                        {
                          href: routeHash('journal', e.id),
                          class: 'row-link',
                          'aria-current': e.id === state.journalSelected ? 'true' : undefined,
                          'aria-label': `${e.id}: ${e.version} ${e.variant} ${e.username ?? 'no user'}, ${e.outcome}`,
                          onclick: (/** @type {MouseEvent} */ ev) => ev.stopPropagation(),
                        },
                        e.id,
                      ),
                    ),
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
          : h(
              'div',
              { class: 'empty', id: 'journal-empty' },
              state.journalOff
                ? 'The journal is off (journalEntries 0: --journal-entries, REPORTBO_JOURNAL_ENTRIES): calls are answered and logged but not kept.'
                : 'No GetAccessToken call yet.',
            ),
    ),
  );
}
