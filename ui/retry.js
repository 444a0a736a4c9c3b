// @ts-check
// Bulk retry: "retry every failed delivery of credential C since T" (POST
// /__admin/notifications/resend-failed), counted first with a dry run, then run, with what it did.

import { fullTime, h, select } from './dom.js';
import { routeHash } from './route.js';
import { ApiError, isoOrEmpty, post, render, say, state, unsay } from './state.js';

/** @typedef {import('../src/client/types.js').ResendFailedResult} ResendFailedResult */

/**
 * What the reader chose and what the API answered. `counted` is the dry run for exactly these inputs:
 * changing either input drops it (and any refusal), so a count never stands for other inputs.
 */
const form = {
  credentialId: '',
  since: '',
  /** @type {{ credentialId: string, since: string, answer: ResendFailedResult } | null} */
  counted: null,
  /** @type {ResendFailedResult | null} */
  done: null,
  /** @type {{ message: string, path: string } | null} */
  error: null,
  busy: false,
};

/** The inputs changed: what was counted or refused for the old ones no longer applies. */
function changed() {
  form.counted = null;
  form.done = null;
  form.error = null;
  unsay('retry');
  render();
}

/** @param {boolean} dryRun */
async function call(dryRun) {
  const since = isoOrEmpty(form.since);
  if (!since) {
    form.error = {
      message: `"${form.since}" is not a time like 2026-04-27 10:00 (UTC, emulator time).`,
      path: 'since',
    };
    render();
    return;
  }
  form.busy = true;
  form.error = null;
  render();
  try {
    const answer = /** @type {ResendFailedResult} */ (
      await post('/notifications/resend-failed', { credentialId: form.credentialId, since, dryRun })
    );
    if (dryRun) form.counted = { credentialId: form.credentialId, since, answer };
    else {
      // Deliveries kept failing (or succeeding) since the count: say so when the run found another number.
      const before = form.counted?.answer.count;
      form.done = answer;
      form.counted = null;
      say(
        before !== undefined && before !== answer.count
          ? `${doneText(answer)} (${before} when counted)`
          : doneText(answer),
        false,
        'retry',
      );
    }
  } catch (err) {
    form.error =
      err instanceof ApiError
        ? { message: err.message, path: err.details.path ?? '' }
        : { message: String(err), path: '' };
  } finally {
    form.busy = false;
    render();
  }
}

/** @param {ResendFailedResult} r */
function doneText(r) {
  if (r.count === 0)
    return r.skipped.length
      ? `Nothing to retry: ${skippedText(r)}.`
      : 'Nothing to retry: no failed delivery any more.';
  const parts = [];
  if (r.resent.length)
    parts.push(`${r.resent.length} exhausted resent as ${r.resent.map((n) => n.id).join(', ')}`);
  if (r.retried.length) parts.push(`${r.retried.length} pending retried now (${r.retried.join(', ')})`);
  if (r.skipped.length) parts.push(skippedText(r));
  return `Bulk retry of ${r.count}: ${parts.join('; ')}.`;
}

/** How many a bulk retry left out and why (each one's reason is in the list below it). @param {ResendFailedResult} r */
function skippedText(r) {
  return `${r.skipped.length} skipped, each with why below`;
}

/** The ones a bulk retry left out, each with why. @param {ResendFailedResult} r @param {string} id */
function skippedList(r, id) {
  return r.skipped.length
    ? h(
        'ul',
        { class: 'skipped-list', id },
        r.skipped.map((x) => h('li', null, link(x.id), ` ${x.message.slice(x.id.length + 2)}`)),
      )
    : null;
}

/** A notification id as a link to its view. @param {string} id */
const link = (id) => h('a', { href: routeHash('notifications', id), class: 'mono' }, id);

/** @param {string[]} ids */
function splitByState(ids) {
  let exhausted = 0;
  let pending = 0;
  for (const id of ids) {
    const n = state.notifications.get(id);
    if (n?.state === 'exhausted') exhausted++;
    else pending++;
  }
  return { exhausted, pending };
}

export function renderRetry() {
  if (!form.credentialId && state.credentials[0]) form.credentialId = state.credentials[0].id;
  if (!form.since && state.clock) form.since = `${fullTime(state.clock.now).slice(0, 10)} 00:00`;
  const counted = form.counted?.answer;
  const invalid = (/** @type {string} */ path) => (form.error?.path === path ? 'true' : undefined);
  return h(
    'section',
    { id: 'retry', class: 'panel' },
    h('h2', null, 'Bulk retry'),
    h(
      'p',
      { class: 'muted' },
      'Every failed delivery of one credential created at or after a time (emulator time, UTC): an exhausted notification is resent as a new one (same bytes), a pending one that failed is given one attempt now. It is counted first; nothing is sent until you run it.',
    ),
    state.credentials.length === 0
      ? h(
          'div',
          { class: 'empty', id: 'retry-empty' },
          'No credentials yet: add one under Credentials & users.',
        )
      : h(
          'div',
          { class: 'form', id: 'retry-form' },
          h(
            'div',
            { class: 'field' },
            h('label', { for: 'retry-credential' }, 'Credential'),
            select(
              {
                id: 'retry-credential',
                'aria-invalid': invalid('credentialId'),
                onchange: (/** @type {Event} */ e) => {
                  form.credentialId = /** @type {HTMLSelectElement} */ (e.target).value;
                  changed();
                },
              },
              state.credentials.map((c) => [c.id, c.id]),
              form.credentialId,
            ),
          ),
          h(
            'div',
            { class: 'field' },
            h('label', { for: 'retry-since' }, 'Since (emulator time, UTC)'),
            h('input', {
              id: 'retry-since',
              value: form.since,
              placeholder: '2026-04-27 10:00',
              'aria-invalid': invalid('since'),
              'aria-describedby': form.error ? 'retry-error' : undefined,
              oninput: (/** @type {Event} */ e) => {
                form.since = /** @type {HTMLInputElement} */ (e.target).value;
                changed();
              },
            }),
          ),
          h(
            'button',
            {
              type: 'button',
              id: 'retry-count',
              disabled: form.busy || state.busy,
              onclick: () => call(true),
            },
            'Count failed deliveries',
          ),
        ),
    form.error
      ? h(
          'div',
          { class: 'form-error', id: 'retry-error', role: 'alert' },
          form.error.path ? `${form.error.path}: ` : '',
          form.error.message,
        )
      : null,
    counted && form.counted
      ? h(
          'div',
          { class: 'retry-preview', id: 'retry-preview' },
          h(
            'p',
            { id: 'retry-count-text' },
            counted.count === 0
              ? `No failed delivery of ${form.counted.credentialId} since ${fullTime(form.counted.since)}.`
              : (() => {
                  const { exhausted, pending } = splitByState(counted.ids);
                  return `${counted.count} failed deliver${counted.count === 1 ? 'y' : 'ies'} of ${form.counted.credentialId} since ${fullTime(form.counted.since)}: ${exhausted} exhausted (resent as new notifications), ${pending} pending (retried now).`;
                })(),
          ),
          counted.ids.length
            ? h(
                'ul',
                { class: 'inline-list', id: 'retry-ids' },
                counted.ids.map((id) => h('li', null, link(id))),
              )
            : null,
          counted.skipped.length
            ? h('p', { id: 'retry-skipped-text' }, `Not taken: ${skippedText(counted)}.`)
            : null,
          skippedList(counted, 'retry-skipped'),
          h(
            'button',
            {
              type: 'button',
              id: 'retry-run',
              class: 'primary',
              disabled: form.busy || state.busy || counted.count === 0,
              onclick: () => call(false),
            },
            `Retry these ${counted.count}`,
          ),
        )
      : null,
    form.done
      ? h(
          'div',
          { class: 'retry-result', id: 'retry-result', role: 'status' },
          h('p', null, doneText(form.done)),
          form.done.resent.length
            ? h(
                'ul',
                { class: 'inline-list', id: 'retry-resent' },
                form.done.resent.map((n) => h('li', null, link(n.id), ` → ${n.credentialId}`)),
              )
            : null,
          skippedList(form.done, 'retry-done-skipped'),
        )
      : null,
  );
}
