// @ts-check
// Form fields bound to an object in the page's state (a redraw rebuilds them from it, so what the
// reader typed survives live updates), and the problem the admin API answered, shown on the form.

import { h } from './dom.js';
import { ApiError, act, render } from './state.js';

/**
 * @typedef {{ values: Record<string, string | boolean>, error: string, errorPath: string, editing: string | null }} FormState
 */

/** @param {Record<string, string | boolean>} values @returns {FormState} */
export const formState = (values) => ({ values: { ...values }, error: '', errorPath: '', editing: null });

/**
 * A labelled input bound to `form.values[key]`; `path` is the admin API's field path, marked when
 * the API's problem names it.
 * @param {string} formId
 * @param {FormState} form
 * @param {string} key
 * @param {string} label
 * @param {Record<string, unknown>} [props]
 * @param {string} [hint]
 */
export function field(formId, form, key, label, props = {}, hint = '') {
  const id = `${formId}-${key}`;
  const tag = props.rows ? 'textarea' : 'input';
  const checkbox = props.type === 'checkbox';
  // The API names the field as a path, maybe under its object (`user.idWeb`, `filters.pcc[0]`).
  const p = form.errorPath;
  const invalid =
    p !== '' &&
    [p, ...p.split('.').slice(1)].some(
      (tail) => tail === key || tail.startsWith(`${key}.`) || tail.startsWith(`${key}[`),
    );
  return h(
    'div',
    { class: checkbox ? 'field check' : 'field' },
    h('label', { for: id }, label),
    h(tag, {
      id,
      name: key,
      ...props,
      ...(checkbox ? { checked: form.values[key] === true } : { value: String(form.values[key] ?? '') }),
      'aria-invalid': invalid ? 'true' : undefined,
      [checkbox ? 'onchange' : 'oninput']: (/** @type {Event} */ e) => {
        const el = /** @type {HTMLInputElement} */ (e.target);
        form.values[key] = checkbox ? el.checked : el.value;
      },
    }),
    hint ? h('span', { class: 'hint' }, hint) : null,
  );
}

/**
 * Sends a form's admin call; on success clears the form and says what happened, on a refusal shows
 * the API's own message on the form (and in the status line).
 * @template T
 * @param {FormState} form
 * @param {(answer: T) => string} what
 * @param {() => Promise<T>} call
 * @param {() => void} reset
 */
export async function submit(form, what, call, reset) {
  form.error = '';
  form.errorPath = '';
  let refused = /** @type {ApiError | null} */ (null);
  const ok = await act(what, async () => {
    try {
      return await call();
    } catch (err) {
      if (err instanceof ApiError) refused = err;
      throw err;
    }
  });
  if (ok) reset();
  else if (refused) {
    const problem = /** @type {ApiError} */ (refused);
    form.error = problem.message;
    form.errorPath = problem.details.path ?? '';
  }
  render();
}

/** The problem the admin API answered for this form, if any. @param {string} id @param {FormState} form */
export const formError = (id, form) =>
  form.error ? h('div', { class: 'form-error', id: `${id}-error`, role: 'alert' }, form.error) : null;

/** A comma- or space-separated list; whole numbers become numbers (the API says what it expected of the rest). @param {string} text @param {boolean} numbers */
export function listOf(text, numbers) {
  const items = text.split(/[\s,]+/).filter(Boolean);
  return numbers ? items.map((t) => (/^\d+$/.test(t) ? Number(t) : t)) : items;
}

/** The delete button clicked once, waiting for its second click (kept in state: a redraw keeps it). */
let armed = '';

/**
 * A button that asks to be clicked twice: a delete never happens on a stray click (no browser
 * dialog, which would block the page).
 * @param {string} id
 * @param {string} label
 * @param {() => void} run
 */
export function confirmButton(id, label, run) {
  return h(
    'button',
    {
      type: 'button',
      id,
      class: 'danger',
      'data-armed': armed === id ? 'yes' : undefined,
      onclick: () => {
        if (armed === id) {
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
    armed === id ? 'Click again to delete' : label,
  );
}
