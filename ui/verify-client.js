// @ts-check
// The SDK check view: the command line of `reportbo-emulator verify-client` built from a small form,
// and a `--json` report the reader picks, shown with the console's words (docs/verify-client.md). The
// page never runs a command: no admin route does (decision 0187). The file is read in the browser;
// nothing is sent anywhere.

import { caseTable, field, h, summaryText } from './dom.js';
import { render } from './state.js';

/**
 * The kit's report, as `verify-client --json` writes it (src/verify-client/types.ts).
 * @typedef {import('../src/verify-client/types.js').ClientReport} ClientReport
 * @typedef {import('../src/verify-client/types.js').ClientCaseResult} ClientCaseResult
 */

const VERSIONS = ['1.7', '1.6'];
const VARIANTS = ['json', 'xml', 'soap11', 'soap12'];
/** A report is far smaller; a larger file is not one (the CLI's --replay refuses the same). */
const MAX_REPORT_BYTES = 10 * 1024 * 1024;

const view = {
  form: { exec: 'node harness.mjs', version: '1.7', variant: 'json' },
  /** @type {ClientReport | null} */
  report: null,
  /** The file the report came from. */
  file: '',
  /** @type {string | null} */
  error: null,
  /** @type {Set<string>} cases whose details the reader opened */
  open: new Set(),
};

/** The tab's count: what the report shown found. */
export function verifyClientCount() {
  if (!view.report) return '';
  return view.report.failed ? `${view.report.failed} failed` : 'passed';
}

/** A shell word: quoted unless it is plain. @param {string} s */
function shellWord(s) {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** The command line the form describes. */
export function commandLine() {
  const f = view.form;
  return [
    'npx reportbo-emulator verify-client',
    `--exec ${shellWord(f.exec.trim() || 'node harness.mjs')}`,
    `--version ${f.version}`,
    `--variant ${f.variant}`,
    '--json verify-client.json',
  ].join(' ');
}

/**
 * Takes the text of a chosen file as a report, or says why it is not one.
 * @param {string} text @param {string} name
 */
function readReport(text, name) {
  /** @type {unknown} */
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${name} is not JSON: choose the file verify-client --json wrote.`);
  }
  const r = /** @type {Partial<ClientReport>} */ (value);
  if (
    !r ||
    typeof r !== 'object' ||
    typeof r.exec !== 'string' ||
    !Array.isArray(r.cases) ||
    !r.cases.every((c) => c && typeof c.id === 'string' && typeof c.status === 'string')
  )
    throw new Error(`${name} is not a verify-client report (it needs exec and cases).`);
  return /** @type {ClientReport} */ (r);
}

/** @param {Event} e */
async function onFile(e) {
  const input = /** @type {HTMLInputElement} */ (e.target);
  const file = input.files?.[0];
  if (!file) return;
  try {
    if (file.size > MAX_REPORT_BYTES)
      throw new Error(`${file.name}: ${file.size} bytes is not a verify-client report.`);
    view.report = readReport(await file.text(), file.name);
    view.file = file.name;
    view.error = null;
    view.open = new Set(view.report.cases.filter((c) => c.status === 'failed').map((c) => c.id));
  } catch (err) {
    view.report = null;
    view.error = err instanceof Error ? err.message : String(err);
  }
  render();
}

/** @param {string} id @param {'version' | 'variant'} key @param {string[]} options */
function choice(id, key, options) {
  return h(
    'select',
    {
      id,
      onchange: (/** @type {Event} */ e) => {
        view.form[key] = /** @type {HTMLSelectElement} */ (e.target).value;
        render();
      },
    },
    options.map((o) => h('option', { value: o, selected: view.form[key] === o }, o)),
  );
}

function renderForm() {
  return h(
    'form',
    {
      class: 'panel verify-form',
      id: 'verify-client-form',
      onsubmit: (/** @type {Event} */ e) => e.preventDefault(),
    },
    h('h2', null, 'SDK check ', h('span', { class: 'muted' }, '· reportbo-emulator verify-client')),
    h(
      'div',
      { class: 'body' },
      h(
        'p',
        { class: 'muted intro' },
        'Runs your harness once per case against a fresh emulator and judges how your SDK calls GetAccessToken ' +
          '(docs/verify-client.md). Run it where your SDK lives, then open its --json report here. ' +
          'The dashboard never runs a command.',
      ),
      h(
        'div',
        { class: 'fields' },
        field(
          'verify-client-exec',
          'Harness command',
          h('input', {
            id: 'verify-client-exec',
            value: view.form.exec,
            spellcheck: 'false',
            autocomplete: 'off',
            oninput: (/** @type {Event} */ e) => {
              view.form.exec = /** @type {HTMLInputElement} */ (e.target).value;
              render();
            },
          }),
          'Run by sh; it gets VERIFY_CLIENT_* variables, prints one token a line and exits 0.',
        ),
        field('verify-client-version', 'API version', choice('verify-client-version', 'version', VERSIONS)),
        field('verify-client-variant', 'Variant', choice('verify-client-variant', 'variant', VARIANTS)),
        field(
          'verify-client-command',
          'Command line',
          h('code', { id: 'verify-client-command', class: 'mono wrap' }, commandLine()),
        ),
        field(
          'verify-client-file',
          'Report (--json)',
          h('input', {
            id: 'verify-client-file',
            type: 'file',
            accept: '.json,application/json',
            onchange: onFile,
          }),
          'Read here, in the browser; nothing is uploaded.',
        ),
      ),
    ),
  );
}

/** @param {ClientReport} r */
function renderReport(r) {
  return h(
    'div',
    { class: 'panel', id: 'verify-client-report' },
    h(
      'h2',
      null,
      h(
        'span',
        { id: 'verify-client-summary', class: r.failed > 0 ? 'fail-text' : 'ok-text' },
        summaryText(r),
      ),
      h(
        'span',
        { class: 'muted report-meta' },
        ` · ${view.file} · ${r.exec} · API ${r.version} ${r.variant}`,
      ),
    ),
    caseTable('verify-client-cases', r.cases, (c) => (c.status === 'skipped' ? null : renderDetails(c))),
  );
}

/** What was set up, what the SDK did, the rule and the fix, the calls and the harness's output. @param {ClientCaseResult} c */
function renderDetails(c) {
  const line = (/** @type {string} */ label, /** @type {string} */ text) =>
    h('div', { class: 'line' }, h('span', { class: 'label' }, label), h('span', null, text));
  const calls = c.calls ?? [];
  const count = c.callCount ?? calls.length;
  return h(
    'details',
    {
      class: 'evidence',
      open: view.open.has(c.id),
      ontoggle: (/** @type {Event} */ e) => {
        if (/** @type {HTMLDetailsElement} */ (e.target).open) view.open.add(c.id);
        else view.open.delete(c.id);
      },
    },
    h('summary', null, `Evidence, rule and fix · ${count} call${count === 1 ? '' : 's'}`),
    c.evidence.map((e) =>
      h('div', { class: 'exchange' }, line('sent', e.sent), line('received', e.received)),
    ),
    line('rule', c.rule),
    line('fix', c.fix),
    calls.length
      ? h(
          'ol',
          { class: 'mono calls' },
          calls.map((call) =>
            h(
              'li',
              null,
              `+${call.atMs} ms ${call.method ?? ''} ${call.target} → ${call.fault ? `fault ${call.fault}` : `${call.outcome} (HTTP ${call.httpStatus})`}`,
            ),
          ),
        )
      : null,
    c.harness
      ? h(
          'pre',
          // Focusable: it scrolls when the output is long, and a keyboard must reach it.
          { class: 'mono harness-output', tabindex: 0, 'aria-label': 'what the harness printed' },
          [
            `exit ${c.harness.exitCode ?? c.harness.signal ?? `stopped after ${c.harness.killedAfterMs} ms`}`,
            ...c.harness.stdout.map((l) => `stdout: ${l}`),
            c.harness.stderr ? `stderr: ${c.harness.stderr}` : '',
          ]
            .filter(Boolean)
            .join('\n'),
        )
      : null,
  );
}

export function renderVerifyClient() {
  return h(
    'section',
    { id: 'verify-client' },
    renderForm(),
    view.error
      ? h('div', { class: 'verify-error', id: 'verify-client-error', role: 'alert' }, view.error)
      : null,
    view.report ? renderReport(view.report) : null,
  );
}
