// @ts-check
// The dashboard's state and its admin API calls: every change the page makes is one of these calls.

import { adminFetch } from './admin-token.js';

export const ADMIN = '/__admin';
export const MAX_ROWS = 300; // notification rows drawn at once (newest first); the filters reach the rest
export const MAX_JOURNAL = 500;
export const MAX_ATTEMPTS = 5;

/**
 * @typedef {import('./dom.js').Attempt} Attempt
 * @typedef {{
 *   id: string, credentialId: string, bookingId: number, bookingNumber: string, bookingStatus: string,
 *   state: string, url: string, createdAt: string, filename: string, attemptCount: number,
 *   inFlight: boolean, warnings: string[], lastAttempt: Attempt | null,
 *   deliveredAt: string | null, exhaustedAt: string | null, cancelledAt: string | null, cancelReason: string | null
 * }} Summary
 * @typedef {Summary & { headers: Record<string, string>, body: unknown, attempts: Attempt[] }} Detail
 * @typedef {{ id: string, apiKey: string, url: string, filters: { pcc?: string[], idWeb?: number[] }, warnings: string[] }} Credential
 * @typedef {{ username: string, idWeb: number, webDescription: string, versions: string[] }} User
 * @typedef {{
 *   id: string, at: string, version: string, variant: string, path: string, username: string | null,
 *   outcome: string, transactionCode: string | null, httpStatus: number, warnings: string[],
 *   fault?: { id: string, kind: string }
 * }} JournalEntry
 * @typedef {{
 *   request: { method: string, target: string, headers: Array<[string, string]>, body: string, bodyBytes: number, truncated: boolean },
 *   response: { status: number, headers: Array<[string, string]>, body: string, truncated: boolean }
 * }} Exchange
 * @typedef {{
 *   credentialId: string, configured: boolean, notifications: number, delivered: number, pending: number,
 *   exhausted: number, cancelled: number, attempts: number, successfulAttempts: number,
 *   successRate: number | null, nextBatchAt: string | null,
 *   lastFailure: null | { notificationId: string, attempt: number, at: string, outcome: string, statusCode: number | null, message: string }
 * }} CredentialStats
 * @typedef {{ subject: string, issuer: string, fingerprint256: string, validFrom: string, validTo: string, ca: boolean, source: string }} TrustedCertificate
 * @typedef {{ id: string, kind: string, version?: string, variant?: string, status?: number, delayMs?: number, remaining: number | null, fraction?: number }} Fault
 * @typedef {{ id: string, credentialId: string | null, attempts: number | null, remaining: number | null, from: string | null, until: string | null, note: string | null, failedAttempts: number, status: string }} Outage
 * @typedef {{ mode: string, now: string, nextBatchAt: string, hourMs?: number }} ClockState
 */

export const state = {
  connected: false,
  /** The first read of every list has answered (until then the page says "Loading…", not "none"). */
  loaded: false,
  /** @type {ClockState | null} */
  clock: null,
  clockReadAt: 0,
  /** @type {Map<string, Summary>} id → summary (with lastAttempt), in creation order */
  notifications: new Map(),
  /** @type {Array<{ bookingId: number, bookingNumber: string, status: string }>} */
  reservations: [],
  /** @type {Credential[]} */
  credentials: [],
  /** @type {User[]} */
  users: [],
  /** @type {CredentialStats[]} */
  stats: [],
  /** @type {TrustedCertificate[]} */
  trust: [],
  /** @type {Fault[]} */
  faults: [],
  /** @type {Outage[]} */
  outages: [],
  /** @type {JournalEntry[]} oldest first */
  journal: [],
  /** @type {string[]} */
  bookingStatuses: [],
  /** @type {string[]} the conformance kit's case ids, in run order */
  caseIds: [],
  filters: {
    state: '',
    credential: '',
    booking: '',
    bookingStatus: '',
    statusClass: '',
    attempts: '',
    text: '',
  },
  /** @type {Set<string> | null} ids whose body matched `filters.text` (null: no text search, or not answered yet) */
  textMatches: null,
  /** @type {string | null} */
  selected: null,
  /** @type {Detail | null} */
  detail: null,
  /** @type {boolean | null} the journal keeps nothing (journalEntries 0); null until known */
  journalOff: null,
  /** @type {string | null} the journal entry opened */
  journalSelected: null,
  /** @type {(JournalEntry & { exchange: Exchange | null }) | null} */
  journalDetail: null,
  // What the reader chose in the forms: the page is redrawn on every live update and keeps them.
  choice: { triggerBooking: '', redeliverStatus: '' },
  busy: false,
};

// ---- admin API ------------------------------------------------------------------------------

/** A refused admin call: the problem's message, with its field path and accepted values kept for forms. */
export class ApiError extends Error {
  /** @param {string} message @param {number} status @param {{ path?: string, accepted?: string[] } | undefined} details */
  constructor(message, status, details) {
    super(message);
    this.status = status;
    this.details = details ?? {};
  }
}

/**
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<any>}
 */
export async function api(path, init) {
  const res = await adminFetch(ADMIN + path, init);
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok)
    throw new ApiError(
      body?.error?.message ?? `${init?.method ?? 'GET'} ${path}: HTTP ${res.status}`,
      res.status,
      body?.error?.details,
    );
  return body;
}

/** An admin write with a JSON body (admin writes take application/json only). @param {string} method @param {string} path @param {unknown} [body] */
export function send(method, path, body) {
  return api(path, {
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
}

/** @param {string} path @param {unknown} [body] */
export const post = (path, body) => send('POST', path, body);

/** A file answered by the admin API, saved under the name it gives. @param {string} path */
export async function download(path) {
  const res = await adminFetch(ADMIN + path);
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    throw new ApiError(
      body?.error?.message ?? `GET ${path}: HTTP ${res.status}`,
      res.status,
      body?.error?.details,
    );
  }
  const name = /filename=([^;]+)/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? 'download';
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return name;
}

/**
 * Runs a button's admin call, shows what it did (or why it failed) and refreshes what it changed.
 * @template T
 * @param {string | ((answer: T) => string)} what
 * @param {() => Promise<T>} call
 * @returns {Promise<boolean>} whether the call succeeded
 */
export async function act(what, call) {
  state.busy = true;
  render();
  try {
    const answer = await call();
    say(typeof what === 'function' ? what(answer) : what);
    return true;
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), true);
    return false;
  } finally {
    state.busy = false;
    render();
  }
}

/** @param {string} text @param {boolean} [isError] */
export function say(text, isError = false) {
  const el = /** @type {HTMLElement} */ (document.getElementById('status'));
  el.textContent = text;
  el.className = isError ? 'status error' : 'status';
}

/** @type {Record<string, () => Promise<void>>} */
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
  async stats() {
    state.stats = (await api('/delivery-stats')).credentials;
  },
  async trust() {
    state.trust = (await api('/trust')).certificates;
  },
  async faults() {
    state.faults = (await api('/faults')).faults;
  },
  async outages() {
    state.outages = (await api('/outages')).outages;
  },
  async journal() {
    // The setting never changes while the emulator runs: read once.
    if (state.journalOff === null) state.journalOff = (await api('/config')).journalEntries === 0;
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
  async journalDetail() {
    const id = state.journalSelected;
    const detail = id ? await api(`/requests/${id}`).catch(() => null) : null;
    if (id === state.journalSelected) state.journalDetail = detail;
  },
  async search() {
    const text = state.filters.text.trim();
    if (!text) {
      state.textMatches = null;
      return;
    }
    const { notifications } = await api(`/notifications?q=${encodeURIComponent(text)}`);
    if (text === state.filters.text.trim())
      state.textMatches = new Set(notifications.map((/** @type {Summary} */ n) => n.id));
  },
};

/** @param {...string} names */
export async function load(...names) {
  try {
    await Promise.all(names.map((n) => loaders[n]?.()));
  } catch (err) {
    say(err instanceof Error ? err.message : String(err), true);
  }
  render();
}

export const loadAll = async () => {
  await load(...Object.keys(loaders));
  state.loaded = true;
  render();
};
let detailRequests = 0;

/**
 * Keeps the newest view of a notification, whether it came from the stream or from a list read
 * meanwhile: more attempts is newer; with as many, the one no longer in flight is.
 * @param {Summary} n
 */
export function upsert(n) {
  const known = state.notifications.get(n.id);
  if (!known || n.attemptCount > known.attemptCount || (n.attemptCount === known.attemptCount && !n.inFlight))
    state.notifications.set(n.id, n);
}

/** @type {Record<string, ReturnType<typeof setTimeout>>} */
const timers = {};
/**
 * Reads these lists once after a burst of changes instead of once per change.
 * @param {string} name
 * @param {number} [ms]
 */
export function loadSoon(name, ms = 200) {
  clearTimeout(timers[name]);
  timers[name] = setTimeout(() => load(name), ms);
}

// Reservations change with every event; under a burst of events read them once.
export const reloadReservationsSoon = () => loadSoon('reservations');

// Redraws are coalesced to one per animation frame; the entry module says how to draw.
let draw = () => {};
let drawPending = false;

/** Sets the function that draws the page. @param {() => void} fn */
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
