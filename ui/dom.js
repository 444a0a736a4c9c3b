// DOM helpers and formatting shared by the dashboard's views.

/** An element; text children are set as text (never parsed as HTML). */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = value;
    else if (key === 'value') el.value = value;
    else el.setAttribute(key, value === true ? '' : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** `2026-04-27T10:55:00.000Z` → `2026-04-27 10:55:00`. */
export const fullTime = (iso) => (iso ? iso.replace('T', ' ').replace(/(\.\d+)?Z$/, '') : '');
/** `2026-04-27T10:55:00.000Z` → `10:55:00`. */
export const shortTime = (iso) => fullTime(iso).slice(11);

export const pill = (text, kind) => h('span', { class: `pill ${kind}` }, text);

export function outcomeText(attempt) {
  if (!attempt) return '';
  return attempt.outcome === 'http_status' ? String(attempt.statusCode) : attempt.outcome;
}

export const isOk = (attempt) => attempt?.outcome === 'http_status' && attempt.statusCode === 200;

export function select(props, options, current) {
  return h(
    'select',
    props,
    options.map(([value, label]) => h('option', { value, selected: value === current }, label)),
  );
}

/** A collapsible view of JSON: objects and arrays are <details>, open for the first two levels. */
export function jsonTree(value, key, depth) {
  const label = key === null ? [] : [h('span', { class: 'key' }, JSON.stringify(key)), ': '];
  if (value !== null && typeof value === 'object') {
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
