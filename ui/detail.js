// @ts-check
// One notification: its state and actions, the attempts, the request as sent (headers, curl, the
// gzip body as a file) and its body decoded (as a tree and as raw text).

import { renderAttempt, triggerText } from './attempts.js';
import { base64Of, copyText, curlCommand, MAX_INLINE_GZ_BYTES } from './curl.js';
import { fullTime, h, jsonTree, outcomeText, pill, select } from './dom.js';
import { NOTIFICATION_LINKS } from './fields.js';
import { notificationsHash, openNotification } from './route.js';
import {
  ApiError,
  act,
  api,
  download,
  focusWhenDrawn,
  MAX_ATTEMPTS,
  post,
  render,
  say,
  state,
} from './state.js';

/**
 * @typedef {import('./state.js').Detail} Detail
 * @typedef {import('../src/client/types.js').RetryResult} RetryResult
 * @typedef {import('../src/client/types.js').EventResult} EventResult
 */

/**
 * The attempts whose request went out and whose answer has not come (the stream's
 * `attempt_started`, until its `attempt`), by notification id.
 * @type {Map<string, Pick<import('./dom.js').Attempt, 'number' | 'startedAt' | 'startedAtWall' | 'trigger' | 'batchAt'>>}
 */
const started = new Map();

/** @param {string} id @param {Parameters<typeof started.set>[1]} attempt */
export function attemptStarted(id, attempt) {
  started.set(id, attempt);
}

/** @param {string} id */
export function attemptEnded(id) {
  started.delete(id);
}

/** What the attempt in flight of `d` is doing: sent and waiting for the answer (the stream said when), or queued. @param {Detail} d */
function inFlightText(d) {
  const number = d.attempts.length + 1;
  const a = started.get(d.id);
  return a?.number === number
    ? `Attempt ${number}/${MAX_ATTEMPTS} (${triggerText(a)}) sent at ${fullTime(a.startedAt)} (wall ${fullTime(a.startedAtWall)}): waiting for the receiver's answer…`
    : `Attempt ${number}/${MAX_ATTEMPTS}: sending… (queued or waiting for the receiver's answer)`;
}

/** @param {...unknown} children */
const panel = (...children) =>
  h('div', { class: 'panel detail', id: 'detail' }, h('div', { class: 'empty' }, ...children.map(String)));

export function renderDetail() {
  const d = state.detail;
  if (!state.selected)
    return panel(
      "Select a notification to see its attempts, the request as sent and the receiver's answers.",
    );
  if (!d)
    return panel(
      state.detailMissing === state.selected
        ? `${state.selected} is not in the emulator: never made, or dropped since (a reset, or past --notification-retention).`
        : `Loading ${state.selected}…`,
    );
  // Queued or running, as the detail was read or as the live stream's summary says since.
  const inFlight =
    d.state === 'pending' && (d.inFlight || (state.notifications.get(d.id)?.inFlight ?? false));
  const canRetry = d.state === 'pending' && !inFlight && !state.busy;
  const statuses = state.bookingStatuses.length ? state.bookingStatuses : [d.bookingStatus];
  // The exact text the receiver reads after gunzip: the body was packed as JSON.stringify of this object.
  const raw = JSON.stringify(d.body);
  const caFile = curlCaFile();
  const curl = curlCommand(d, { caFile });
  const gz = state.detailGz;
  const inline =
    gz && gz.length <= MAX_INLINE_GZ_BYTES ? curlCommand(d, { caFile, gzBase64: base64Of(gz) }) : null;
  const gzipBytes = Number(d.headers['Content-Length'] ?? 0);
  return h(
    'div',
    { class: 'panel detail', id: 'detail', 'data-id': d.id },
    h(
      'div',
      { class: 'body' },
      h(
        'div',
        { class: 'title', id: 'detail-title', tabindex: '-1' },
        h('strong', { class: 'mono' }, d.id),
        h('span', { class: 'mono' }, d.bookingNumber),
        h('span', null, `BookingID ${d.bookingId}`),
        h('span', null, d.bookingStatus),
        pill(d.state, d.state),
        h('span', { class: 'muted' }, `→ ${d.credentialId}`),
      ),
      h('div', { class: 'muted mono' }, d.url),
      resentLinks(d),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            id: 'retry-now',
            disabled: !canRetry,
            title:
              'POST /__admin/notifications/:id/retry: one attempt now, outside the batch schedule (counts toward the 5)',
            onclick: () =>
              act(
                (r) =>
                  `${d.id}: attempt ${r.attempt.number}/${MAX_ATTEMPTS} → ${outcomeText(r.attempt)} (${r.notification.state})`,
                () => /** @type {Promise<RetryResult>} */ (post(`/notifications/${d.id}/retry`)),
                about(d.id),
              ),
          },
          'Retry now',
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'resend',
            disabled: state.busy,
            title: `POST /__admin/notifications/${d.id}/resend: a new notification with the same bytes, to ${d.credentialId} only; the reservation is not touched. The page says first what happens to this one`,
            onclick: () => askPlan(d, {}),
          },
          `Resend to ${d.credentialId} only…`,
        ),
        h('span', { class: 'sep' }),
        h('label', { for: 'redeliver-status' }, 'Manual redelivery as'),
        select(
          {
            id: 'redeliver-status',
            onchange: (/** @type {Event} */ e) => {
              state.choice.redeliverStatus = /** @type {HTMLSelectElement} */ (e.target).value;
              render(); // the hint says what the status chosen changes
            },
          },
          statuses.map((s) => [s, s]),
          state.choice.redeliverStatus || currentStatus(d),
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'redeliver',
            disabled: state.busy,
            title:
              "POST /__admin/reservations/:bookingId/redeliver: a new notification to every credential the booking routes to, with the status chosen (it becomes the booking's status)",
            onclick: () =>
              act(
                (r) =>
                  `Redelivery of ${d.bookingNumber}: ${r.notifications.map((n) => `${n.id} → ${n.credentialId}`).join(', ') || 'no notification'} (${[r.message, ...r.warnings].join('; ')})`,
                async () =>
                  /** @type {EventResult} */ (
                    await post(`/reservations/${d.bookingId}/redeliver`, {
                      status: await redeliverStatus(d),
                    })
                  ),
                about(d.id),
              ),
          },
          'Redeliver',
        ),
      ),
      renderPlan(d),
      h('div', { class: 'muted hint', id: 'redeliver-hint' }, redeliverHint(d)),
      d.state === 'cancelled'
        ? h(
            'div',
            { class: 'cancelled-note', id: 'cancelled' },
            `Cancelled at ${fullTime(d.cancelledAt)}: ${cancelText(d.cancelReason)}; it is not redelivered.`,
          )
        : null,
      d.stateNote ? h('div', { class: 'cancelled-note', id: 'state-note' }, d.stateNote) : null,
      d.warnings.length
        ? h(
            'ul',
            { class: 'warnings' },
            d.warnings.map((w) => h('li', null, w)),
          )
        : null,
      h('h3', null, `Attempts (${d.attempts.length}/${MAX_ATTEMPTS})`),
      d.attempts.length
        ? h(
            'ol',
            { class: 'timeline', id: 'attempts' },
            d.attempts.map((a, i) => renderAttempt(a, d.attempts[i - 1], gzipBytes)),
          )
        : d.state === 'cancelled'
          ? h('div', { class: 'muted' }, 'No attempt: cancelled before its first attempt was sent.')
          : null,
      // The attempt queued or running now (the live stream's summary says so), then the next one due.
      inFlight
        ? h('div', { class: 'in-flight', id: 'attempt-in-flight', role: 'status' }, inFlightText(d))
        : d.state === 'pending' && state.clock
          ? h(
              'div',
              { class: 'muted', id: 'next-attempt' },
              `Next attempt at ${fullTime(state.clock.nextBatchAt)} (emulator time: the next redelivery batch)`,
            )
          : null,
      h('h3', null, 'Request as sent'),
      h(
        'table',
        { class: 'headers', id: 'request-headers' },
        h(
          'tbody',
          null,
          Object.entries(d.headers).map(([k, v]) => h('tr', null, h('td', null, k), h('td', null, v))),
        ),
      ),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            type: 'button',
            id: 'download-gz',
            title: `GET /__admin/notifications/${d.id}/body.gz: the body exactly as sent (gzip)`,
            onclick: () =>
              act(
                (name) => `Saved ${name}`,
                () => download(`/notifications/${d.id}/body.gz`),
                about(d.id),
              ),
          },
          'Download body (.gz)',
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'copy-curl',
            onclick: async () =>
              say(
                (await copyText(curl, document.getElementById('curl')))
                  ? `Copied the curl command (it reads ${d.filename}.gz: download the body beside it)`
                  : 'The browser refused the clipboard: the command is selected, copy it with Ctrl+C',
                false,
                about(d.id),
              ),
          },
          'Copy as curl',
        ),
        h(
          'button',
          {
            type: 'button',
            id: 'copy-curl-inline',
            disabled: !inline,
            title: inline
              ? 'The same command with the gzip body inlined (base64): one paste, nothing to download'
              : `The body is over ${MAX_INLINE_GZ_BYTES / 1024} KiB of gzip: use the command that reads the .gz file`,
            onclick: async () =>
              say(
                inline && (await copyText(inline, document.getElementById('curl-inline')))
                  ? 'Copied the one-paste curl command (the gzip body is inlined)'
                  : 'The browser refused the clipboard: the command is selected, copy it with Ctrl+C',
                false,
                about(d.id),
              ),
          },
          'Copy as curl (one paste)',
        ),
      ),
      h('div', { class: 'muted hint', id: 'curl-hint' }, curlHint(d, caFile)),
      h(
        'pre',
        { class: 'curl', id: 'curl', tabindex: '0', role: 'group', 'aria-label': 'curl command' },
        curl,
      ),
      inline
        ? h(
            'details',
            { class: 'raw' },
            h('summary', null, 'One-paste variant (body inlined)'),
            h(
              'pre',
              {
                class: 'curl',
                id: 'curl-inline',
                tabindex: '0',
                role: 'group',
                'aria-label': 'curl command, one paste',
              },
              inline,
            ),
          )
        : null,
      renderEditAndSend(d),
      h('h3', null, 'Body (decoded)'),
      h('div', { class: 'json', id: 'body', 'data-keep': `body-${d.id}` }, jsonTree(d.body, null, 0)),
      h(
        'details',
        { class: 'raw' },
        h('summary', null, 'Raw decoded body'),
        // Outside the <summary>: a control inside another control is reached by neither keyboard nor
        // screen reader as itself.
        h(
          'div',
          { class: 'actions' },
          h(
            'button',
            {
              type: 'button',
              id: 'copy-body',
              onclick: async () =>
                say(
                  (await copyText(raw, document.getElementById('raw-body')))
                    ? `Copied the decoded body of ${d.id}`
                    : 'The browser refused the clipboard: the body is selected, copy it with Ctrl+C',
                  false,
                  about(d.id),
                ),
            },
            'Copy',
          ),
        ),
        h(
          'pre',
          { id: 'raw-body', tabindex: '0', role: 'group', 'aria-label': 'Body as the receiver reads it' },
          raw,
        ),
      ),
    ),
  );
}

/** What a message about notification `id` is about: it goes when another notification is opened. @param {string} id */
const about = (id) => `notification:${id}`;

/** @param {string | null} reason */
function cancelText(reason) {
  if (reason === 'credential_deleted') return 'its credential was deleted (credential_deleted)';
  if (reason === 'resent') return 'a resend took its place (resent)';
  return String(reason);
}

/**
 * The CA file `--cacert` names: the one the emulator was given (`--ca-file`, e.g. the tour's
 * certs/ca.pem), while a certificate from it is still trusted.
 */
function curlCaFile() {
  return state.caFile && state.trust.some((t) => t.source === 'ca-file') ? state.caFile : null;
}

/** What the curl command needs beside it, in words. @param {Detail} d @param {string | null} caFile */
function curlHint(d, caFile) {
  const status = "-w prints the receiver's HTTP status last.";
  if (!d.url.startsWith('https://')) return status;
  if (caFile)
    return `--cacert ${caFile}: the CA file the emulator was given (--ca-file), as a path from where it was started; drop it if the receiver's certificate is publicly trusted. ${status}`;
  const given = state.trust.filter((t) => t.source !== 'ca-file');
  return given.length
    ? `The emulator also trusts ${given.map((t) => `${t.subject} (${t.source})`).join(', ')}: if the receiver's certificate is signed by one of these, add --cacert <that CA's PEM file>. ${status}`
    : status;
}

/**
 * The status a redelivery sends: the one the reader chose, else the booking's status read at the
 * click (the list the selector shows may lag an event by a moment: a Void just made is never undone by
 * a default read before it).
 * @param {Detail} d
 */
async function redeliverStatus(d) {
  if (state.choice.redeliverStatus) return state.choice.redeliverStatus;
  const now = /** @type {import('../src/client/types.js').Reservation} */ (
    await api(`/reservations/${d.bookingId}`)
  );
  return now.status;
}

/**
 * Links between a resend and the notification it resends, both ways: each member the notification's
 * shape marks as naming other notifications (fields.js), in an element named after it.
 * @param {Detail} d
 */
function resentLinks(d) {
  /** @param {string} id */
  const link = (id) => h('a', { href: notificationsHash(id), class: 'mono' }, id);
  const parts = NOTIFICATION_LINKS.flatMap(({ member, label }) => {
    const ids = /** @type {string[]} */ ([/** @type {Record<string, unknown>} */ (d)[member] ?? []].flat());
    if (ids.length === 0) return [];
    const id = member.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    return [
      h(
        'span',
        { id },
        `${label} `,
        ids.flatMap((x, i) => (i === 0 ? [link(x)] : [', ', link(x)])),
      ),
    ];
  });
  if (parts.length === 0) return null;
  return h(
    'div',
    { class: 'resent-links', id: 'resent-links' },
    parts.flatMap((p, i) => (i === 0 ? [p] : [' · ', p])),
  );
}

/**
 * What Redeliver and Resend will do, said before either is clicked: where a redelivery goes, which of
 * the booking's pending notifications it takes the place of (decision 0200), and a status change.
 * @param {Detail} d
 */
function redeliverHint(d) {
  const now = currentStatus(d);
  const chosen = state.choice.redeliverStatus || now;
  const pending = [];
  for (const n of state.notifications.values())
    if (n.bookingId === d.bookingId && n.state === 'pending') pending.push(n.id);
  const settles = pending.length
    ? `; ${pending.join(', ')} (pending) then ${pending.length === 1 ? 'stops' : 'stop'} being redelivered`
    : '';
  const change =
    chosen === now ? '' : ` Redelivering as ${chosen} changes the booking from ${now} to ${chosen}.`;
  return `Redeliver sends a new notification of booking ${d.bookingNumber} (now ${now}) to every credential it routes to (${routedTo(d)})${settles}; "Resend" sends this one again to ${d.credentialId} only.${change}`;
}

/** The booking's status now (what a redelivery should default to), else the one this notification carried. @param {Detail} d */
function currentStatus(d) {
  return state.reservations.get(d.bookingId)?.status ?? d.bookingStatus;
}

/** The credentials the booking's notifications went to so far: where a redelivery goes. @param {Detail} d */
function routedTo(d) {
  const ids = new Set();
  for (const n of state.notifications.values()) if (n.bookingId === d.bookingId) ids.add(n.credentialId);
  return [...ids].join(', ') || d.credentialId;
}

/**
 * A resend asked for and not yet sent: the API's dry run says what would happen to the original and
 * which credentials get what (decision 0200); the reader sends it, keeps the original, or cancels.
 * @type {{ id: string, input: import('../src/client/types.js').ResendInput, keep: boolean, answer: import('../src/client/types.js').ResendResult | null }}
 */
const plan = { id: '', input: {}, keep: false, answer: null };

/**
 * Asks the API what resending `d` with `input` would do (a dry run: nothing is sent) and shows it,
 * focus on its Send button. Resolves with the refusal when the API refused the input.
 * @param {Detail} d @param {import('../src/client/types.js').ResendInput} input @param {boolean} [keep]
 * @returns {Promise<ApiError | null>}
 */
async function askPlan(d, input, keep = false) {
  try {
    const answer = /** @type {import('../src/client/types.js').ResendResult} */ (
      await post(`/notifications/${d.id}/resend`, { ...input, keepOriginal: keep, dryRun: true })
    );
    Object.assign(plan, { id: d.id, input, keep, answer });
    // The plan opens with its Send button focused; toggling "keep" leaves the keyboard on the box.
    if (document.activeElement?.id === 'resend-keep') render();
    else focusWhenDrawn('#resend-confirm');
    return null;
  } catch (err) {
    if (err instanceof ApiError) return err;
    say(err instanceof Error ? err.message : String(err), true);
    return null;
  }
}

/** Sends the resend the plan announced and opens the new notification. @param {Detail} d */
async function sendPlan(d) {
  /** @type {import('../src/client/types.js').ResendResult | null} */
  let answer = null;
  const ok = await act(
    (r) => r.message,
    async () => {
      answer = /** @type {import('../src/client/types.js').ResendResult} */ (
        await post(`/notifications/${d.id}/resend`, { ...plan.input, keepOriginal: plan.keep })
      );
      return answer;
    },
    // The new notification opens: what the resend said is about it.
    (r) => about(r.notifications[0]?.id ?? d.id),
  );
  const first = /** @type {import('../src/client/types.js').ResendResult | null} */ (answer)
    ?.notifications[0];
  if (!ok) return;
  Object.assign(plan, { id: '', input: {}, keep: false, answer: null });
  // Focus goes to what was created (openNotification moves it to its title).
  if (first) openNotification(first.id);
}

/** What a resend of `d` would do, before it is sent. @param {Detail} d */
function renderPlan(d) {
  const answer = plan.id === d.id ? plan.answer : null;
  if (!answer) return null;
  const pending = answer.original.state === 'pending';
  return h(
    'div',
    { class: 'resend-plan', id: 'resend-plan', role: 'group', 'aria-labelledby': 'resend-plan-text' },
    h('p', { id: 'resend-plan-text' }, `Before sending: ${answer.message}`),
    answer.warnings.length
      ? h(
          'ul',
          { class: 'warnings', id: 'resend-warnings' },
          answer.warnings.map((w) => h('li', null, w)),
        )
      : null,
    pending
      ? h(
          'label',
          { class: 'check' },
          h('input', {
            type: 'checkbox',
            id: 'resend-keep',
            checked: plan.keep,
            onchange: (/** @type {Event} */ e) =>
              askPlan(d, plan.input, /** @type {HTMLInputElement} */ (e.target).checked),
          }),
          'Keep the original pending (the batches still redeliver it)',
        )
      : null,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          id: 'resend-confirm',
          class: 'primary',
          disabled: state.busy,
          onclick: () => sendPlan(d),
        },
        answer.warnings.length ? 'Send anyway' : 'Send',
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'resend-cancel',
          onclick: () => {
            Object.assign(plan, { id: '', input: {}, keep: false, answer: null });
            focusWhenDrawn('#resend');
          },
        },
        'Cancel',
      ),
    ),
  );
}

/** What the reader typed in "Edit and send", per notification, and the API's refusal. */
const editing = {
  id: '',
  text: '',
  /** @type {string[]} */
  credentialIds: [],
  /** @type {{ message: string, path: string } | null} */
  error: null,
};

/** Edit the body and send it as a new notification to the credentials chosen. @param {Detail} d */
function renderEditAndSend(d) {
  if (editing.id !== d.id) {
    editing.id = d.id;
    editing.text = JSON.stringify(d.body, null, 2);
    editing.credentialIds = [d.credentialId];
    editing.error = null;
  }
  // A credential deleted since it was ticked is no longer a target (its box is gone with it).
  if (state.loaded) {
    const known = new Set(state.credentials.map((c) => c.id));
    if (editing.credentialIds.some((id) => !known.has(id)))
      editing.credentialIds = editing.credentialIds.filter((id) => known.has(id));
  }
  const send = async () => {
    /** @type {unknown} */
    let body;
    try {
      body = JSON.parse(editing.text);
    } catch (err) {
      editing.error = { message: `Not JSON: ${err instanceof Error ? err.message : String(err)}`, path: '' };
      render();
      return;
    }
    editing.error = null;
    // The API checks the body in the dry run: a refusal shows on the field, nothing is sent.
    const refused = await askPlan(d, {
      body: /** @type {Record<string, unknown>} */ (body),
      credentialIds: editing.credentialIds,
    });
    if (refused) {
      editing.error = { message: refused.message, path: refused.details.path ?? '' };
      render();
    }
  };
  return h(
    'details',
    { class: 'edit-send', id: 'edit-send' },
    h('summary', null, 'Edit and send'),
    h(
      'div',
      { class: 'body' },
      h('label', { for: 'edit-body' }, 'Body (JSON, validated against the contract when sent)'),
      h('textarea', {
        id: 'edit-body',
        rows: 14,
        spellcheck: 'false',
        value: editing.text,
        'aria-invalid': editing.error ? 'true' : undefined,
        'aria-describedby': editing.error ? 'edit-error' : undefined,
        oninput: (/** @type {Event} */ e) => {
          editing.text = /** @type {HTMLTextAreaElement} */ (e.target).value;
          if (editing.error) {
            editing.error = null; // the refusal no longer applies to what is typed
            render();
          }
        },
      }),
      editing.error
        ? h(
            'div',
            { class: 'form-error', id: 'edit-error', role: 'alert' },
            editing.error.path ? `${editing.error.path}: ` : '',
            editing.error.message,
          )
        : null,
      h(
        'fieldset',
        { class: 'edit-targets' },
        h('legend', null, 'Send to'),
        state.credentials.map((c) =>
          h(
            'label',
            { class: 'check' },
            h('input', {
              type: 'checkbox',
              id: `edit-to-${c.id}`,
              checked: editing.credentialIds.includes(c.id),
              onchange: (/** @type {Event} */ e) => {
                const on = /** @type {HTMLInputElement} */ (e.target).checked;
                editing.credentialIds = on
                  ? [...editing.credentialIds, c.id]
                  : editing.credentialIds.filter((x) => x !== c.id);
                render();
              },
            }),
            c.id,
          ),
        ),
      ),
      h(
        'button',
        {
          type: 'button',
          id: 'edit-send-button',
          class: 'primary',
          disabled: state.busy || editing.credentialIds.length === 0,
          onclick: send,
        },
        `Send as a new notification to ${editing.credentialIds.length} credential${editing.credentialIds.length === 1 ? '' : 's'}…`,
      ),
    ),
  );
}
