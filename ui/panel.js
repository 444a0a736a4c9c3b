// @ts-check
// One set-up panel drawn from the description of its resource (decision 0104): the list as a table
// with a remove button (and an edit button) per row, a form that adds (or edits) one through the
// admin API, and the API's refusal shown at the field it names. The form's values live in the page's
// state, so what the reader typed survives the redraws of live updates.

import { h, select } from './dom.js';
import { ApiError, act, render, send, state } from './state.js';

/**
 * @typedef {import('../src/client/types.js').AdminOperations} Operations
 * @typedef {import('./dom.js').ChildList} ChildList
 * @typedef {Record<string, string | boolean>} Values what the form's fields hold, by key
 * @typedef {{ values: Values, error: string, errorPath: string, editing: string | null }} FormState
 */

/**
 * An operation's input as a form sends it: the contract's shape, where a value may still be the text
 * the reader typed (a number field holding "x12"): the API refuses it naming its path, and the form
 * marks that field.
 * @template T
 * @typedef {T extends string | number | boolean ? T | string : T extends readonly (infer E)[] ? Array<Typed<E>> : { [P in keyof T]: Typed<T[P]> }} Typed
 */

/**
 * The admin operations the panels call, with the method and path the route table declares for each
 * (src/admin/contract/routes.ts): a wrong or moved path fails the type check.
 * @satisfies {Partial<{ [K in keyof Operations]: Pick<Operations[K], 'method' | 'path'> }>}
 */
const ROUTES = {
  addCredential: { method: 'post', path: '/credentials' },
  updateCredential: { method: 'put', path: '/credentials/:id' },
  deleteCredential: { method: 'delete', path: '/credentials/:id' },
  addUser: { method: 'post', path: '/users' },
  updateUser: { method: 'put', path: '/users/:username' },
  deleteUser: { method: 'delete', path: '/users/:username' },
  trust: { method: 'post', path: '/trust' },
  untrust: { method: 'delete', path: '/trust/:fingerprint' },
  addFault: { method: 'post', path: '/faults' },
  deleteFault: { method: 'delete', path: '/faults/:id' },
  clearFaults: { method: 'delete', path: '/faults' },
  addOutage: { method: 'post', path: '/outages' },
  deleteOutage: { method: 'delete', path: '/outages/:id' },
  clearOutages: { method: 'delete', path: '/outages' },
};

/**
 * Calls an admin operation by its name, like `AdminClient.call`: typed input (path parameters and
 * body) and answer, from the client's types.
 * @template {keyof typeof ROUTES} K
 * @param {K} operation
 * @param {Typed<import('../src/client/types.js').OperationInput<K>>} input
 * @returns {Promise<import('../src/client/types.js').OperationAnswer<K>>}
 */
export function call(operation, input) {
  const { method, path } = ROUTES[operation];
  const { params = {}, body } = /** @type {{ params?: Record<string, string | number>, body?: unknown }} */ (
    input
  );
  const url = path.replace(/:(\w+)/g, (_, name) => encodeURIComponent(String(params[name])));
  return /** @type {Promise<import('../src/client/types.js').OperationAnswer<K>>} */ (
    send(method.toUpperCase(), url, body)
  );
}

/**
 * @template Row
 * @typedef {object} Column
 * @property {string} head
 * @property {string} [cls] the cell's class
 * @property {(row: Row) => ChildList} cell
 * @property {(row: Row) => string} [title]
 */

/**
 * @typedef {object} Field
 * @property {string} key the value it edits
 * @property {string} label
 * @property {'text' | 'number' | 'password' | 'textarea' | 'checkbox' | 'select'} [type] text when absent
 * @property {string} [path] the admin API's field that a refusal names (the key when absent)
 * @property {string} [placeholder]
 * @property {string | ((editing: string | null) => string)} [hint]
 * @property {Record<string, string> | (() => Array<[string, string]>)} [options] of a select: value → label, or
 *   pairs read from the state (ids keep their order)
 * @property {(values: Values) => boolean} [when] shown only when this holds
 * @property {boolean} [fixed] read-only while editing (the resource's own id)
 */

/**
 * How one resource is shown and changed: its element ids all start with `name` (`#credential-table`,
 * `#credential-form`, `#credential-<key>`, `#credential-submit`, `#credential-error`).
 * @template Row, Answer
 * @typedef {object} PanelSpec
 * @property {string} name
 * @property {string} panelId
 * @property {string} title the panel's heading, followed by the row count
 * @property {() => Row[]} rows
 * @property {(row: Row) => string} key the row's id in the admin API
 * @property {Column<Row>[]} columns
 * @property {(row: Row) => string} [rowClass]
 * @property {(row: Row) => string} [rowTitle]
 * @property {boolean} [scroll] the table scrolls sideways (a wide one)
 * @property {string} empty what an empty list says
 * @property {Values} initial the form's values when it is empty
 * @property {Field[]} fields
 * @property {(editing: string | null) => string} formTitle
 * @property {string} addLabel the submit button's label when adding
 * @property {(values: Values, editing: string | null) => Promise<Answer>} save adds, or replaces `editing`
 * @property {(answer: Answer, editing: string | null) => string} saved what the status line says
 * @property {boolean} [keepValues] the form keeps its values after an add (to add a similar one)
 * @property {(row: Row) => Values} [edit] the form's values to edit this row (no edit button without it)
 * @property {{ label: 'Delete' | 'Remove', confirm: boolean, name: (row: Row) => string, call: (row: Row) => Promise<unknown>, said: (row: Row) => string }} remove
 *   the row's remove button; `confirm`: it asks for a second click; `name` completes its accessible name
 * @property {{ call: () => Promise<unknown>, said: string }} [removeAll]
 */

/**
 * The panel of one resource, as a function that draws it from the page's state.
 * @template Row, Answer
 * @param {PanelSpec<Row, Answer>} spec
 * @returns {() => HTMLElement}
 */
export function panel(spec) {
  /** @type {FormState} */
  const form = { values: { ...spec.initial }, error: '', errorPath: '', editing: null };
  const reset = () => {
    form.values = { ...spec.initial };
    form.editing = null;
    form.error = '';
    form.errorPath = '';
  };
  return () => {
    const rows = spec.rows();
    // The row being edited is gone (deleted here or elsewhere): the form adds again, keeping what was typed.
    if (form.editing !== null && state.loaded && !rows.some((r) => spec.key(r) === form.editing))
      form.editing = null;
    const editing = form.editing;
    const table = h(
      'table',
      { id: `${spec.name}-table`, 'aria-labelledby': `${spec.panelId}-title` },
      h(
        'thead',
        null,
        h(
          'tr',
          null,
          spec.columns.map((c) => h('th', null, c.head)),
          h('th', null, ''),
        ),
      ),
      h(
        'tbody',
        null,
        rows.map((row) => {
          const key = spec.key(row);
          const cls = [editing === key ? 'selected' : '', spec.rowClass?.(row) ?? ''].join(' ').trim();
          return h(
            'tr',
            { 'data-id': key, class: cls || undefined, title: spec.rowTitle?.(row) },
            spec.columns.map((c) => h('td', { class: c.cls, title: c.title?.(row) }, c.cell(row))),
            h('td', { class: 'row-actions' }, rowActions(spec, form, row, key)),
          );
        }),
      ),
    );
    return h(
      'div',
      { class: 'panel', id: spec.panelId },
      h('h2', { id: `${spec.panelId}-title` }, `${spec.title} (${rows.length})`),
      rows.length
        ? spec.scroll
          ? h('div', { class: 'scroll' }, table)
          : table
        : h('div', { class: 'empty' }, state.loaded ? spec.empty : 'Loading…'),
      h(
        'form',
        {
          class: 'setup-form',
          id: `${spec.name}-form`,
          'aria-labelledby': `${spec.name}-form-title`,
          onsubmit: async (/** @type {Event} */ e) => {
            e.preventDefault();
            form.error = '';
            form.errorPath = '';
            const refused = (/** @type {unknown} */ err) => {
              // The API's own message and the field it names, kept for the form (act shows it too).
              if (err instanceof ApiError)
                [form.error, form.errorPath] = [err.message, err.details.path ?? ''];
              throw err;
            };
            // About the set-up tab: what it says goes when the reader leaves the tab.
            const saved = await act(
              (answer) => spec.saved(answer, editing),
              () => spec.save(form.values, editing).catch(refused),
              'setup',
            );
            if (saved && !spec.keepValues) reset();
            render();
          },
        },
        h('h3', { id: `${spec.name}-form-title` }, spec.formTitle(editing)),
        formFields(spec, form),
        form.error && !markedField(spec, form)
          ? h('div', { class: 'form-error', id: `${spec.name}-error`, role: 'alert' }, form.error)
          : null,
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { type: 'submit', class: 'primary', id: `${spec.name}-submit`, disabled: state.busy },
            editing ? 'Save' : spec.addLabel,
          ),
          editing
            ? h(
                'button',
                {
                  type: 'button',
                  id: `${spec.name}-cancel`,
                  onclick: () => {
                    reset();
                    render();
                  },
                },
                'Cancel',
              )
            : null,
          spec.removeAll && rows.length
            ? h(
                'button',
                {
                  type: 'button',
                  id: `remove-all-${spec.name}s`,
                  onclick: () =>
                    act(spec.removeAll?.said ?? '', () => spec.removeAll?.call() ?? Promise.resolve()),
                },
                'Remove all',
              )
            : null,
        ),
      ),
    );
  };
}

/**
 * A row's buttons: Edit (fills the form with it), and Delete or Remove.
 * @template Row, Answer
 * @param {PanelSpec<Row, Answer>} spec @param {FormState} form @param {Row} row @param {string} key
 */
function rowActions(spec, form, row, key) {
  const { remove, edit } = spec;
  return [
    edit
      ? h(
          'button',
          {
            type: 'button',
            id: `edit-${spec.name}-${key}`,
            'aria-label': `Edit ${remove.name(row)}`,
            onclick: () => {
              form.editing = key;
              form.error = '';
              form.errorPath = '';
              form.values = edit(row);
              // The keyboard follows: to the first field the edit can change.
              focusNext = `${spec.name}-${spec.fields.find((f) => !f.fixed)?.key}`;
              render();
            },
          },
          'Edit',
        )
      : null,
    removeButton(`${remove.label.toLowerCase()}-${spec.name}-${key.replaceAll(':', '')}`, spec, row),
  ];
}

/**
 * The key of the shown field the API's refusal names, if any: the API names a field by its path,
 * maybe under its object (`user.idWeb`, `filters.pcc[0]`).
 * @template Row, Answer
 * @param {PanelSpec<Row, Answer>} spec @param {FormState} form
 */
function markedField(spec, form) {
  const p = form.errorPath;
  if (!p) return null;
  const tails = [p, ...p.split('.').slice(1)];
  const names = (/** @type {string} */ name) =>
    tails.some((t) => t === name || t.startsWith(`${name}.`) || t.startsWith(`${name}[`));
  return spec.fields.find((f) => (f.when?.(form.values) ?? true) && names(f.path ?? f.key))?.key ?? null;
}

/**
 * The form's fields, each bound to `form.values[key]`; the one the API's refusal names is marked
 * invalid and carries the message.
 * @template Row, Answer
 * @param {PanelSpec<Row, Answer>} spec @param {FormState} form
 */
function formFields(spec, form) {
  const marked = markedField(spec, form);
  // The refusal named this field (or none), or the change hid the field it named (a fault's kind
  // without a status): it no longer applies to what the form holds now.
  const changed = (/** @type {string} */ key) => {
    if (form.error && (marked === null || marked === key || markedField(spec, form) !== marked)) {
      form.error = '';
      form.errorPath = '';
      render();
    }
  };
  return h(
    'div',
    { class: 'fields' },
    spec.fields
      .filter((f) => f.when?.(form.values) ?? true)
      .map((f) => {
        const id = `${spec.name}-${f.key}`;
        const hint = typeof f.hint === 'function' ? f.hint(form.editing) : (f.hint ?? '');
        const invalid = marked === f.key;
        const described = [invalid ? `${spec.name}-error` : '', hint ? `${id}-hint` : ''].join(' ').trim();
        const common = {
          id,
          name: f.key,
          'aria-invalid': invalid ? 'true' : undefined,
          'aria-describedby': described || undefined,
        };
        const type = f.type ?? 'text';
        /** @param {Event} e */
        const onValue = (e) => {
          const el = /** @type {HTMLInputElement} */ (e.target);
          form.values[f.key] = type === 'checkbox' ? el.checked : el.value;
          if (type === 'select') render(); // a choice may show or hide other fields
          changed(f.key);
        };
        const control =
          type === 'select'
            ? select(
                { ...common, onchange: onValue },
                typeof f.options === 'function' ? f.options() : Object.entries(f.options ?? {}),
                String(form.values[f.key]),
              )
            : type === 'checkbox'
              ? h('input', {
                  ...common,
                  type: 'checkbox',
                  checked: form.values[f.key] === true,
                  onchange: onValue,
                })
              : h(type === 'textarea' ? 'textarea' : 'input', {
                  ...common,
                  value: String(form.values[f.key] ?? ''),
                  placeholder: f.placeholder,
                  readonly: f.fixed && form.editing !== null,
                  ...(type === 'textarea' ? { rows: 4, spellcheck: 'false' } : {}),
                  ...(type === 'number' ? { inputmode: 'numeric' } : {}),
                  ...(type === 'password' ? { type: 'password', autocomplete: 'off' } : {}),
                  oninput: onValue,
                });
        return h(
          'div',
          { class: type === 'checkbox' ? 'field check' : 'field' },
          h('label', { for: id }, f.label),
          control,
          hint ? h('span', { class: 'hint', id: `${id}-hint` }, hint) : null,
          invalid
            ? h('div', { class: 'form-error', id: `${spec.name}-error`, role: 'alert' }, form.error)
            : null,
        );
      }),
  );
}

/** The control to focus once the page is drawn (an Edit or a remove moved the keyboard). */
let focusNext = '';

/** Moves the focus where the last row action asked, once the set-up page is drawn (its `after`). */
export function focusPending() {
  if (focusNext) document.getElementById(focusNext)?.focus();
  focusNext = '';
}

/** The remove button clicked once, waiting for its second click (kept here: a redraw keeps it). */
let armed = '';

/**
 * A row's Delete or Remove button. One that confirms asks to be clicked twice: a delete never happens
 * on a stray click (no browser dialog, which would block the page).
 * @template Row, Answer
 * @param {string} id @param {PanelSpec<Row, Answer>} spec @param {Row} row
 */
function removeButton(id, spec, row) {
  const { remove } = spec;
  const text = armed === id ? `Click again to ${remove.label.toLowerCase()}` : remove.label;
  const run = () => {
    focusNext = `${spec.name}-${spec.fields[0]?.key}`; // the row and its button go: keep the keyboard in the panel
    act(remove.said(row), () => remove.call(row), 'setup');
  };
  return h(
    'button',
    {
      type: 'button',
      id,
      class: remove.confirm ? 'danger' : undefined,
      'data-armed': armed === id ? 'yes' : undefined,
      'aria-label': `${text} ${remove.name(row)}`,
      onclick: () => {
        if (!remove.confirm || armed === id) {
          armed = '';
          run();
          return;
        }
        armed = id;
        setTimeout(() => {
          if (armed !== id) return;
          armed = '';
          render();
        }, 4000);
        render();
      },
    },
    text,
  );
}

/** A comma- or space-separated list. @param {string | boolean} text */
export const listOf = (text) =>
  String(text)
    .split(/[\s,]+/)
    .filter(Boolean);

/** A whole number typed as one becomes a number; anything else goes as typed, for the API to refuse by name. @param {string | boolean} text */
export const whole = (text) => (/^\d+$/.test(String(text).trim()) ? Number(text) : String(text));
