// @ts-check
// DOM helpers and formatting shared by the dashboard's views.

/**
 * @typedef {string | number | Node | null | undefined | false} Child
 * @typedef {Child | ChildList[]} ChildList
 * @typedef {Record<string, unknown> | null | undefined} Props
 */

/**
 * An element; text children are set as text (never parsed as HTML). Handlers (`onclick`, …) are set
 * as the element's handler properties, so a redraw can hand an element kept on the page the new ones.
 * @param {string} tag
 * @param {Props} props
 * @param {...ChildList} children
 * @returns {HTMLElement}
 */
export function h(tag, props, ...children) {
  const el = /** @type {HTMLElement & Record<string, unknown>} */ (document.createElement(tag));
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el[key] = value;
    else if (key === 'class') el.className = String(value);
    else if (key === 'value')
      /** @type {HTMLInputElement} */ (/** @type {unknown} */ (el)).value = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of /** @type {Child[]} */ (/** @type {unknown[]} */ (children).flat(Infinity))) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/**
 * `2026-04-27T10:55:00.000Z` → `2026-04-27 10:55:00`.
 * @param {string | null | undefined} iso
 */
export const fullTime = (iso) => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : '');
/**
 * `2026-04-27T10:55:00.000Z` → `10:55:00`.
 * @param {string | null | undefined} iso
 */
export const shortTime = (iso) => fullTime(iso).slice(11);

/** @param {string} text @param {string} kind */
export const pill = (text, kind) => h('span', { class: `pill ${kind}` }, text);

/** A form's labelled field, with an optional hint under it. @param {string} id @param {string} label @param {Node} input @param {string} [hint] */
export function field(id, label, input, hint) {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    input,
    hint ? h('div', { class: 'hint muted' }, hint) : null,
  );
}

/** The CLI's marks of a case (src/report/case-report.ts), coloured like the notification states. */
/** @type {Record<string, string>} */
const CASE_MARK = { passed: '✓', failed: '✗', warned: '!', skipped: '–' };
/** @type {Record<string, string>} */
const CASE_KIND = { passed: 'ok', failed: 'failed', warned: 'pending', skipped: 'skipped' };

/** A case's status as a coloured mark. @param {string} status */
export const caseMark = (status) => pill(CASE_MARK[status] ?? status, CASE_KIND[status] ?? '');

/**
 * A kit's report as the console sums it up (src/report/case-report.ts `formatTally`).
 * @param {{ cases: unknown[], passed: number, failed: number, warned: number, skipped: number, durationMs: number }} r
 */
export function summaryText(r) {
  const n = r.cases.length;
  return (
    `${r.failed > 0 ? 'FAILED' : 'OK'}: ${n} case${n === 1 ? '' : 's'}: ${r.passed} passed, ${r.failed} failed, ` +
    `${r.warned} warned, ${r.skipped} skipped (${(r.durationMs / 1000).toFixed(1)} s)`
  );
}

/**
 * A conformance kit's cases (verify, verify-client) as one table: mark, id, title, and the reason with
 * what `details` adds under it.
 * @template {{ id: string, status: string, title: string, reason: string }} C
 * @param {string} id @param {C[]} cases @param {(c: C) => Node | null} details
 */
export function caseTable(id, cases, details) {
  return h(
    'table',
    { id },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        ['', 'Case', 'Title', 'Reason'].map((t) => h('th', null, t)),
      ),
    ),
    h(
      'tbody',
      null,
      cases.map((c) =>
        h(
          'tr',
          { 'data-id': c.id, 'data-status': c.status },
          h('td', { class: 'mark' }, caseMark(c.status), ' ', c.status),
          h('td', { class: 'mono' }, c.id),
          h('td', { class: 'wrap' }, c.title),
          h('td', { class: 'wrap reason' }, c.reason, details(c)),
        ),
      ),
    ),
  );
}

/** @param {Attempt | null | undefined} attempt */
export function outcomeText(attempt) {
  if (!attempt) return '';
  return attempt.outcome === 'http_status' ? String(attempt.statusCode) : attempt.outcome;
}

/**
 * The dashboard's copy of `acknowledges()` in src/model/acknowledgement.ts (only an HTTP answer of
 * exactly 200 acknowledges; spec "Endpoints 1" rule 2): the browser modules do not import server code.
 * @param {Attempt | null | undefined} attempt
 */
export const isOk = (attempt) => attempt?.outcome === 'http_status' && attempt.statusCode === 200;

/**
 * @param {Props} props
 * @param {Array<[string, string]>} options
 * @param {string | undefined} current
 */
export function select(props, options, current) {
  return h(
    'select',
    props,
    options.map(([value, label]) => h('option', { value, selected: value === current }, label)),
  );
}

/**
 * A collapsible view of JSON: objects and arrays are <details>, open for the first two levels.
 * @param {unknown} value
 * @param {string | number | null} key
 * @param {number} depth
 * @returns {HTMLElement}
 */
export function jsonTree(value, key, depth) {
  const label = key === null ? [] : [h('span', { class: 'key' }, JSON.stringify(key)), ': '];
  if (value !== null && typeof value === 'object') {
    /** @type {Array<[string | number, unknown]>} */
    const entries = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
    const [open, close] = Array.isArray(value) ? ['[', ']'] : ['{', '}'];
    return h(
      'details',
      { open: depth < 2 },
      h(
        'summary',
        null,
        label,
        open,
        h('span', { class: 'hint' }, ` ${entries.length} ${Array.isArray(value) ? 'items' : 'keys'} `),
        close,
      ),
      entries.map(([k, v]) => jsonTree(v, Array.isArray(value) ? null : k, depth + 1)),
    );
  }
  const kind = typeof value === 'string' ? 'string' : typeof value === 'number' ? 'number' : 'literal';
  return h('div', { class: 'leaf' }, label, h('span', { class: kind }, JSON.stringify(value)));
}

/** @typedef {import('../src/client/types.js').Attempt} Attempt */

/**
 * A JSON body indented for reading (a receiver's `{"error":…}` on one line is hard to scan); any
 * other text, or JSON cut at 4 KiB, as it came.
 * @param {string} text
 */
export function prettyJson(text) {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return text;
  try {
    return JSON.stringify(JSON.parse(t), null, 2);
  } catch {
    return text;
  }
}
