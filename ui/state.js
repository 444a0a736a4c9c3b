// The dashboard's state and its admin API calls: every change the page makes is one of these calls.

import { adminFetch } from './admin-token.js';

export const ADMIN = '/__admin';
export const MAX_ROWS = 300; // notification rows drawn at once (newest first); the filters reach the rest
export const MAX_JOURNAL = 500;
export const MAX_ATTEMPTS = 5;

export const state = {
  connected: false,
  clock: null,
  clockReadAt: 0,
  notifications: new Map(), // id → summary (with lastAttempt), in creation order
  reservations: [],
  credentials: [],
  users: [],
  journal: [], // oldest first
  bookingStatuses: [],
  caseIds: [], // the conformance kit's case ids, in run order
  filters: { state: '', credential: '', booking: '' },
  selected: null,
  detail: null,
  // What the reader chose in the forms: the page is redrawn on every live update and keeps them.
  choice: { triggerBooking: '', redeliverStatus: '' },
  busy: false,
};

// ---- admin API ------------------------------------------------------------------------------

export async function api(path, init) {
  const res = await adminFetch(ADMIN + path, init);
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok)
    throw new Error(body?.error?.message ?? `${init?.method ?? 'GET'} ${path}: HTTP ${res.status}`);
  return body;
}

export function post(path, body) {
  return api(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

/** Runs a button's admin call, shows what it did (or why it failed) and refreshes what it changed. */
export async function act(what, call) {
  state.busy = true;
  render();
  try {
    const answer = await call();
    say(typeof what === 'function' ? what(answer) : what);
  } catch (err) {
    say(err.message, true);
  } finally {
    state.busy = false;
    render();
  }
}

export function say(text, isError = false) {
  const el = document.getElementById('status');
  el.textContent = text;
  el.className = isError ? 'status error' : 'status';
}

const loaders = {
  async clock() {
    state.clock = await api('/clock');
    state.clockReadAt = Date.now();
  },
  async notifications() {
    // The stream keeps delivering while this list is read: merge, never overwrite newer rows.
    const { notifications } = await api('/notifications');
    for (const n of notifications) upsert(n);
  },
  async reservations() {
    state.reservations = (await api('/reservations')).reservations;
  },
  async credentials() {
    state.credentials = (await api('/credentials')).credentials;
  },
  async users() {
    state.users = (await api('/users')).users;
  },
  async journal() {
    state.journal = (await api('/requests')).requests.slice(-MAX_JOURNAL);
  },
  async statuses() {
    // The accepted statuses of manual redelivery and the conformance kit's case ids, as the admin API
    // documents them (they never change).
    if (state.bookingStatuses.length) return;
    const { schemas } = (await api('/openapi.json')).components;
    state.bookingStatuses = schemas.RedeliverInput.properties.status.enum;
    state.caseIds = schemas.VerifyCase.properties.id.enum;
  },
  async detail() {
    // Answers may arrive out of order: only the last request's answer is shown.
    const ticket = ++detailRequests;
    const detail = state.selected ? await api(`/notifications/${state.selected}`).catch(() => null) : null;
    if (ticket === detailRequests) state.detail = detail;
  },
};

export async function load(...names) {
  try {
    await Promise.all(names.map((n) => loaders[n]()));
  } catch (err) {
    say(err.message, true);
  }
  render();
}

export const loadAll = () => load(...Object.keys(loaders));
let detailRequests = 0;

/**
 * Keeps the newest view of a notification, whether it came from the stream or from a list read
 * meanwhile: more attempts is newer; with as many, the one no longer in flight is.
 */
export function upsert(n) {
  const known = state.notifications.get(n.id);
  if (!known || n.attemptCount > known.attemptCount || (n.attemptCount === known.attemptCount && !n.inFlight))
    state.notifications.set(n.id, n);
}

// Reservations change with every event; under a burst of events read them once.
let reservationsTimer;
export function reloadReservationsSoon() {
  clearTimeout(reservationsTimer);
  reservationsTimer = setTimeout(() => load('reservations'), 200);
}

// Redraws are coalesced to one per animation frame; the entry module says how to draw.
let draw = () => {};
let drawPending = false;

/** Sets the function that draws the page. */
export function setDraw(fn) {
  draw = fn;
}

/** Asks for a redraw (at most one per frame). */
export function render() {
  if (drawPending) return;
  drawPending = true;
  const run = () => {
    if (!drawPending) return;
    drawPending = false;
    draw();
  };
  requestAnimationFrame(run);
  // A page the browser counts as hidden (a background tab) gets no animation frames: the timer
  // draws it anyway, whichever comes first.
  setTimeout(run, 100);
}
