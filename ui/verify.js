// @ts-check
// The receiver conformance view: a form for POST /__admin/verify (the CLI's `verify`, docs/verify.md)
// and the report it answers. The kit runs in its own in-process emulator: this emulator's
// credentials, notifications and clock are untouched; it trusts the CAs this emulator trusts. The
// page asks for the progress stream (Accept: application/x-ndjson) and shows each case as it ends.

import { adminFetch } from './admin-token.js';
import { caseMark, caseTable, field, h, summaryText } from './dom.js';
import { ADMIN, render, state } from './state.js';

/**
 * The kit's shapes, as the admin client declares them (src/client/types.ts, from the route table).
 * @typedef {import('../src/client/types.js').VerifyInput} VerifyInput
 * @typedef {import('../src/client/types.js').VerifyReport} VerifyReport
 * @typedef {VerifyReport['cases'][number]} CaseResult
 * @typedef {'passed' | 'failed' | 'warned' | 'skipped'} CaseStatus
 * @typedef {{ id: string, index: number, total: number }} CaseRunning
 * @typedef {{ type: 'caseStart', id: string, index: number, total: number }
 *   | { type: 'caseEnd', result: CaseResult }
 *   | { type: 'report', report: VerifyReport }
 *   | { type: 'error', error: { message: string } }} VerifyEvent
 */

/** What the reader typed (kept across the redraws live updates cause), the run and its report. */
const verify = {
  form: { receiver: '', apiKey: '', caPem: '', allowHttp: false, probe: '', responseTimeoutMs: '' },
  /** @type {Set<string>} case ids chosen; none = every case */
  only: new Set(),
  running: false,
  /** @type {VerifyReport | null} */
  report: null,
  /** @type {string | null} */
  error: null,
  /** The error is the admin API's refusal of the form (the kit never ran): editing the form answers it. */
  refused: false,
  /** @type {CaseResult[]} results of the cases that ended, while running */
  progress: [],
  /** @type {CaseRunning | null} the case running */
  current: null,
  /** @type {Set<string>} cases whose evidence the reader opened */
  open: new Set(),
};

/** The JSON body of POST /__admin/verify: optional members only when given; the server checks it all. */
function requestBody() {
  const f = verify.form;
  /** @type {VerifyInput} */
  const body = { receiver: f.receiver.trim(), apiKey: f.apiKey };
  if (f.caPem.trim()) body.caPem = f.caPem;
  if (f.allowHttp) body.allowHttp = true;
  if (f.probe.trim()) body.probe = f.probe.trim();
  if (verify.only.size)
    body.only = /** @type {VerifyInput['only']} */ (state.caseIds.filter((id) => verify.only.has(id)));
  if (f.responseTimeoutMs.trim()) body.responseTimeoutMs = Number(f.responseTimeoutMs.trim());
  return body;
}

async function run() {
  verify.running = true;
  verify.error = null;
  verify.refused = false;
  verify.progress = [];
  verify.current = null;
  render();
  try {
    // With the admin token when the emulator has one (asked for once, as every admin call).
    const res = await adminFetch(`${ADMIN}/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/x-ndjson' },
      body: JSON.stringify(requestBody()),
    });
    if (!res.ok) {
      const body = await res.json().catch(() => null);
      verify.refused = true;
      throw new Error(body?.error?.message ?? `POST /verify: HTTP ${res.status}`);
    }
    if (res.body) await readEvents(res.body, onEvent);
    verify.open.clear();
  } catch (err) {
    verify.error = err instanceof Error ? err.message : String(err);
  } finally {
    verify.running = false;
    verify.current = null;
    render();
  }
}

/**
 * Reads a newline-delimited JSON stream, one event a line.
 * @param {ReadableStream<Uint8Array>} body
 * @param {(event: VerifyEvent) => void} handle
 */
async function readEvents(body, handle) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line) handle(JSON.parse(line));
    }
  }
}

/** @param {VerifyEvent} event */
function onEvent(event) {
  if (event.type === 'caseStart') verify.current = { id: event.id, index: event.index, total: event.total };
  else if (event.type === 'caseEnd') verify.progress.push(event.result);
  else if (event.type === 'report') verify.report = event.report;
  else if (event.type === 'error') verify.error = event.error.message;
  render();
}

/** The tab's count: running, or what the last report found. */
export function verifyCount() {
  if (verify.running) return '…';
  if (!verify.report) return '';
  return verify.report.failed ? `${verify.report.failed} failed` : 'passed';
}

export function renderVerify() {
  return h(
    'section',
    { id: 'verify' },
    renderForm(),
    verify.error
      ? h('div', { class: 'verify-error', id: 'verify-error', role: 'alert' }, verify.error)
      : null,
    verify.running
      ? h(
          'div',
          { class: 'panel running', id: 'verify-running' },
          h('span', { class: 'spinner' }),
          `Running the conformance kit against ${verify.form.receiver.trim()}… `,
          h(
            'span',
            { class: 'muted' },
            'This takes seconds; a delivery the receiver does not answer waits the response timeout.',
          ),
          renderProgress(),
        )
      : null,
    verify.report ? renderReport(verify.report) : null,
  );
}

/** The cases that ended so far and the one running, as the stream tells them. */
function renderProgress() {
  const c = verify.current;
  return h(
    'ol',
    { class: 'verify-progress', id: 'verify-progress' },
    verify.progress.map((r) =>
      h(
        'li',
        { 'data-id': r.id, 'data-status': r.status },
        caseMark(r.status),
        ' ',
        h('span', { class: 'mono' }, r.id),
      ),
    ),
    c && !verify.progress.some((r) => r.id === c.id)
      ? h(
          'li',
          { class: 'running', id: 'verify-current' },
          `[${c.index}/${c.total}] `,
          h('span', { class: 'mono' }, c.id),
          ' …',
        )
      : null,
  );
}

/**
 * @param {string} id
 * @param {'receiver' | 'apiKey' | 'probe' | 'responseTimeoutMs'} key
 * @param {Record<string, unknown>} props
 */
function textInput(id, key, props) {
  return h('input', {
    id,
    value: verify.form[key],
    spellcheck: 'false',
    autocomplete: 'off',
    oninput: (/** @type {Event} */ e) => {
      verify.form[key] = /** @type {HTMLInputElement} */ (e.target).value;
    },
    ...props,
  });
}

function renderForm() {
  const f = verify.form;
  const ids = state.caseIds;
  const cases = h(
    'div',
    { class: 'cases', id: 'verify-cases-choice' },
    ids.map((id) =>
      h(
        'label',
        { class: 'check mono' },
        h('input', {
          type: 'checkbox',
          id: `verify-case-${id}`,
          value: id,
          checked: verify.only.has(id),
          onchange: (/** @type {Event} */ e) => {
            if (/** @type {HTMLInputElement} */ (e.target).checked) verify.only.add(id);
            else verify.only.delete(id);
            render();
          },
        }),
        id,
      ),
    ),
  );
  return h(
    'form',
    {
      class: 'panel verify-form',
      id: 'verify-form',
      // Any field changed (inputs bubble here): a refusal of what was typed no longer applies.
      oninput: () => {
        if (!verify.refused) return;
        verify.error = null;
        verify.refused = false;
        render();
      },
      onsubmit: (/** @type {Event} */ e) => {
        e.preventDefault();
        if (!verify.running) run();
      },
    },
    h('h2', null, 'Receiver conformance ', h('span', { class: 'muted' }, '· POST /__admin/verify')),
    h(
      'div',
      { class: 'body' },
      h(
        'p',
        { class: 'muted intro' },
        'Sends real notifications to your receiver, as the provider would, and says case by case whether it handles them ' +
          '(docs/verify.md). The kit runs its own emulator: nothing here changes.',
      ),
      h(
        'div',
        { class: 'fields' },
        field(
          'verify-receiver',
          'Receiver URL',
          textInput('verify-receiver', 'receiver', { placeholder: 'https://localhost:8443/reportbo' }),
        ),
        field(
          'verify-api-key',
          'ApiKey',
          textInput('verify-api-key', 'apiKey', { placeholder: 'sent as Authorization: Bearer <ApiKey>' }),
        ),
        field(
          'verify-probe',
          'Probe URL template (optional)',
          textInput('verify-probe', 'probe', {
            placeholder: 'https://localhost:8443/bookings/{BookingID}',
          }),
          'Enables records-final-status and same-second-filename-collision.',
        ),
        field(
          'verify-timeout',
          'Response timeout, ms (optional)',
          textInput('verify-timeout', 'responseTimeoutMs', { placeholder: '30000', inputmode: 'numeric' }),
        ),
        field(
          'verify-ca-pem',
          'CA certificate, PEM (optional)',
          h('textarea', {
            id: 'verify-ca-pem',
            rows: 4,
            spellcheck: 'false',
            placeholder: '-----BEGIN CERTIFICATE-----\n…\n-----END CERTIFICATE-----',
            value: f.caPem,
            oninput: (/** @type {Event} */ e) => {
              f.caPem = /** @type {HTMLTextAreaElement} */ (e.target).value;
            },
          }),
          'Trusted for the receiver’s certificate besides the system roots.',
        ),
        h(
          'div',
          { class: 'field' },
          h('span', { class: 'label' }, 'Cases'),
          cases,
          h(
            'div',
            { class: 'hint muted' },
            verify.only.size
              ? `${verify.only.size} of ${ids.length} chosen`
              : `none chosen: all ${ids.length}`,
          ),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'label',
          { class: 'check' },
          h('input', {
            type: 'checkbox',
            id: 'verify-allow-http',
            checked: f.allowHttp,
            onchange: (/** @type {Event} */ e) => {
              f.allowHttp = /** @type {HTMLInputElement} */ (e.target).checked;
            },
          }),
          'Allow http:// (a local receiver; the tls case then warns)',
        ),
        h('span', { class: 'sep' }),
        h(
          'button',
          { type: 'submit', class: 'primary', id: 'verify-run', disabled: verify.running },
          verify.running ? 'Running…' : 'Run',
        ),
      ),
    ),
  );
}

/** @param {VerifyReport} r */
function renderReport(r) {
  return h(
    'div',
    { class: 'panel', id: 'verify-report' },
    h(
      'h2',
      null,
      h('span', { id: 'verify-summary', class: r.failed > 0 ? 'fail-text' : 'ok-text' }, summaryText(r)),
      h(
        'span',
        { class: 'muted report-meta' },
        ` · ${r.receiver} · response timeout ${r.responseTimeoutMs} ms · seed ${r.seed}`,
      ),
    ),
    (r.causes ?? []).length
      ? h(
          'div',
          { class: 'verify-causes', id: 'verify-causes' },
          r.causes.map((c) =>
            h(
              'div',
              { class: 'cause', 'data-cause': c.cause, role: 'alert' },
              h('strong', null, `Cause: ${c.summary}`),
              h('div', null, `Fix first: ${c.fixFirst}`),
              h('div', { class: 'muted' }, `Explains: ${c.cases.join(', ')}`),
            ),
          ),
        )
      : null,
    caseTable('verify-cases', r.cases, (c) =>
      c.status === 'failed' || c.status === 'warned' ? renderEvidence(c) : null,
    ),
  );
}

/** @param {CaseResult} c */
function renderEvidence(c) {
  const line = (/** @type {string} */ label, /** @type {string} */ text) =>
    h('div', { class: 'line' }, h('span', { class: 'label' }, label), h('span', null, text));
  return h(
    'details',
    {
      class: 'evidence',
      open: verify.open.has(c.id),
      ontoggle: (/** @type {Event} */ e) => {
        if (/** @type {HTMLDetailsElement} */ (e.target).open) verify.open.add(c.id);
        else verify.open.delete(c.id);
      },
    },
    h('summary', null, c.evidence.length ? `Evidence (${c.evidence.length}), rule and fix` : 'Rule and fix'),
    c.evidence.map((e) =>
      h('div', { class: 'exchange' }, line('sent', e.sent), line('received', e.received)),
    ),
    line('rule', c.rule),
    line('fix', c.fix),
  );
}
