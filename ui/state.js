// @ts-check
// The dashboard's state and its admin API calls: every change the page makes is one of these calls.

import { adminFetch } from './admin-token.js';

export const ADMIN = '/__admin';
export const MAX_ROWS = 300; // notification rows drawn at once (newest first); the filters reach the rest
/** Matches a search answers per page (newest first; "Older than these" pages on): a page, not megabytes. */
export const SEARCH_ROWS = 100;
/**
 * Summaries the page holds at most: the newest page read when the stream connects, what the stream
 * adds, and the pages read since; beyond it the oldest not shown are forgotten (a page reads them again).
 */
const HELD_MAX = 5000;
export const MAX_JOURNAL = 500;
export const MAX_ATTEMPTS = 5;

/**
 * The admin API's shapes, as its typed client declares them (src/client/types.ts, made from the route
 * table's schemas): the page re-declares none.
 * @typedef {import('../src/client/types.js').Attempt} Attempt
 * @typedef {import('../src/client/types.js').NotificationSummary} Summary
 * @typedef {import('../src/client/types.js').Notification} Detail
 * @typedef {import('../src/client/types.js').Credential} Credential
 * @typedef {import('../src/client/types.js').UserView} User
 * @typedef {import('../src/client/types.js').JournalEntry} JournalEntry
 * @typedef {import('../src/client/types.js').JournalDetail} JournalDetail
 * @typedef {NonNullable<JournalDetail['exchange']>} Exchange
 * @typedef {import('../src/client/types.js').DeliveryStats} CredentialStats
 * @typedef {import('../src/client/types.js').DeliveryStatsList} DeliveryStatsList
 * @typedef {import('../src/client/types.js').TrustedCertificate} TrustedCertificate
 * @typedef {import('../src/client/types.js').Fault} Fault
 * @typedef {import('../src/client/types.js').Outage} Outage
 * @typedef {import('../src/client/types.js').ClockState} ClockState
 * @typedef {import('../src/client/types.js').ReservationSummary} ReservationSummary
 * @typedef {import('../src/client/types.js').NotificationList} NotificationList
 * @typedef {{ total: number, nextCursor: string | null, newerCursor: string | null }} Page what a paged list answers beside its items
 * @typedef {{
 *   '/clock': ClockState, '/notifications': NotificationList, '/reservations': { reservations: ReservationSummary[] } & Page,
 *   '/credentials': { credentials: Credential[] }, '/users': { users: User[] } & Page,
 *   '/delivery-stats': DeliveryStatsList, '/trust': { certificates: TrustedCertificate[] },
 *   '/faults': { faults: Fault[] }, '/outages': { outages: Outage[] }, '/requests': { requests: JournalEntry[] } & Page
 * }} Lists the answers of the lists the page reads, by path
 */

export const state = {
  connected: false,
  /** The first read of every list has answered (until then the page says "Loading…", not "none"). */
  loaded: false,
  /** @type {ClockState | null} */
  clock: null,
  clockReadAt: 0,
  /** @type {Map<string, Summary>} id → summary (with lastAttempt): the ones the page holds (`heldIds` orders them) */
  notifications: new Map(),
  /** How many notifications the emulator has: the first page's `total`, plus each created since. */
  total: 0,
  /** @type {Map<number, ReservationSummary>} by BookingID, in creation order: read once, then kept by the stream's events */
  reservations: new Map(),
  /** @type {Credential[]} */
  credentials: [],
  /** @type {User[]} */
  users: [],
  /** @type {CredentialStats[]} */
  stats: [],
  /** @type {DeliveryStatsList['window'] | null} the buckets of the stats' timelines (charts.js) */
  statsWindow: null,
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
    /** Created at or after / before this emulator time (as typed: `2026-04-27 10:00`, UTC). */
    since: '',
    until: '',
  },
  /**
   * The page of the list the reader is on. Without filters at the newest end it is the notifications
   * held (live from the stream); otherwise the admin API answers it (`GET /__admin/notifications`
   * with the filters and `before`, `after` or `page=oldest`) and the stream keeps its rows current.
   */
  page: {
    /** @type {'newest' | 'before' | 'after' | 'oldest'} */
    anchor: 'newest',
    /** @type {string | null} the notification `before`/`after` names */
    cursor: null,
    /** The time jumped to (as the control gave it), shown in the title; '' when not jumped. */
    at: '',
    /** @type {string[] | null} the page's ids, newest first (null: not answered yet) */
    ids: null,
    total: 0,
    /** @type {string | null} */
    nextCursor: null,
    /** @type {string | null} */
    newerCursor: null,
  },
  /** @type {string | null} */
  selected: null,
  /** @type {Detail | null} */
  detail: null,
  /** @type {string | null} the notification opened that the emulator does not have (it answered 404) */
  detailMissing: null,
  /** @type {Uint8Array | null} the opened notification's body as sent (gzip), for the one-paste curl */
  detailGz: null,
  /** @type {string | null | undefined} the CA file the emulator was given (--ca-file), as given; undefined until read */
  caFile: undefined,
  /** @type {boolean | null} the journal keeps nothing (journalEntries 0); null until known */
  journalOff: null,
  /** @type {string | null} the journal entry opened */
  journalSelected: null,
  /** @type {JournalDetail | null} */
  journalDetail: null,
  /** @type {string | null} the journal call opened that the journal does not have (it answered 404) */
  journalMissing: null,
  // What the reader chose in the forms: the page is redrawn on every live update and keeps them.
  choice: { triggerBooking: '', redeliverStatus: '' },
  busy: false,
};

/** A time typed as `2026-04-27 10:00` (UTC, like the page shows them) as an ISO instant, or ''. @param {string} text */
export function isoOrEmpty(text) {
  const t = text.trim().replace(' ', 'T');
  if (!t) return '';
  const ms = Date.parse(/[zZ]|[+-]\d\d:\d\d$/.test(t) ? t : `${t}Z`);
  return Number.isNaN(ms) ? '' : new Date(ms).toISOString();
}

/** The admin API query of the filters shown, for the exports (the same notifications as the list). */
export function filterQuery() {
  const f = state.filters;
  const q = new URLSearchParams();
  if (f.state) q.set('state', f.state);
  if (f.credential) q.set('credentialId', f.credential);
  if (f.bookingStatus) q.set('bookingStatus', f.bookingStatus);
  if (f.statusClass) q.set('statusClass', f.statusClass);
  if (f.attempts) q.set('attempts', f.attempts);
  if (f.booking.trim()) q.set('booking', f.booking.trim());
  if (f.text.trim()) q.set('q', f.text.trim());
  if (isoOrEmpty(f.since)) q.set('since', isoOrEmpty(f.since));
  if (isoOrEmpty(f.until)) q.set('until', isoOrEmpty(f.until));
  return q.toString();
}

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
 * @returns {Promise<unknown>} the answer's JSON: the caller names its shape (a client type)
 */
export async function api(path, init) {
  const res = await adminFetch(ADMIN + path, init);
  /** @type {any} */
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  if (!res.ok)
    throw new ApiError(
      body?.error?.message ?? `${init?.method ?? 'GET'} ${path}: HTTP ${res.status}`,
      res.status,
      body?.error?.details,
    );
  return body;
}

/**
 * One of the lists the page reads, typed by its path.
 * @template {keyof Lists} P
 * @param {P} path
 * @returns {Promise<Lists[P]>}
 */
const list = (path) => /** @type {Promise<Lists[P]>} */ (api(path));

/**
 * Every item of a paged list (decision 0236), oldest first: its newest page, then each older one.
 * @template T
 * @param {(before: string) => Promise<Page & { items: T[] }>} page reads the page older than a cursor ('' for the newest)
 * @returns {Promise<T[]>}
 */
async function everyPage(page) {
  /** @type {T[][]} */
  const pages = [];
  let before = '';
  do {
    const answer = await page(before);
    pages.unshift(answer.items);
    before = answer.nextCursor ?? '';
  } while (before);
  return pages.flat();
}

/** `path` with the page older than `before` asked for (none: the newest page). @param {string} path @param {string} before */
const olderThan = (path, before) => (before ? `${path}?before=${encodeURIComponent(before)}` : path);

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
 * `about` names what the message is about (see `say`); a call that could not reach the emulator
 * says so about the connection, whatever it was about.
 * @template T
 * @param {string | ((answer: T) => string)} what
 * @param {() => Promise<T>} call
 * @param {string | ((answer: T) => string)} [about]
 * @returns {Promise<boolean>} whether the call succeeded
 */
export async function act(what, call, about = '') {
  state.busy = true;
  render();
  try {
    const answer = await call();
    say(
      typeof what === 'function' ? what(answer) : what,
      false,
      typeof about === 'function' ? about(answer) : about,
    );
    return true;
  } catch (err) {
    say(
      err instanceof Error ? err.message : String(err),
      true,
      err instanceof ApiError ? (typeof about === 'string' ? about : '') : CONNECTION,
    );
    return false;
  } finally {
    state.busy = false;
    render();
  }
}

/** What a message that could not reach the emulator is about: it goes when the live stream is back. */
export const CONNECTION = 'connection';
/** What the status line's message is about ('' for nothing in particular: it stays until the next one). */
let statusAbout = '';

/**
 * Shows `text` on the status line. `about` names the cause it goes with (`notification:<id>`, `retry`,
 * `connection`, `load`), so `unsay(about)` clears it once that no longer applies (decision 0106).
 * @param {string} text @param {boolean} [isError] @param {string} [about]
 */
export function say(text, isError = false, about = '') {
  const el = /** @type {HTMLElement} */ (document.getElementById('status'));
  el.textContent = text;
  el.className = isError ? 'status error' : 'status';
  statusAbout = about;
}

/** Clears the status line when what it says is about `about`. @param {string} about */
export function unsay(about) {
  if (!about || statusAbout !== about) return;
  say('');
}

/** @type {Record<string, () => Promise<void>>} */
const loaders = {
  async clock() {
    state.clock = await list('/clock');
    state.clockReadAt = Date.now();
  },
  async notifications() {
    // The newest page, once per connection; the stream adds the rest (merged: never older over newer).
    const { notifications, total, retention } = await list('/notifications');
    // Held already and newer than the page's newest: the stream brought them while this was read,
    // after the page was made, so the page's total does not count them.
    const newest = notifications.at(-1)?.id;
    const held = [...state.notifications.keys()];
    const since = newest ? held.filter((id) => idNumber(id) > idNumber(newest)).length : held.length;
    for (const n of notifications) upsert(n);
    state.total = (total ?? notifications.length) + since;
    droppedCounted = retention?.dropped ?? 0;
    counting = true;
  },
  async reservations() {
    // Once per connection (and after a reset): the stream's events keep them (`applyEvent`).
    const all = await everyPage(async (before) => {
      const answer = await list(/** @type {'/reservations'} */ (olderThan('/reservations', before)));
      return { ...answer, items: answer.reservations };
    });
    state.reservations = new Map(all.map((r) => [r.bookingId, r]));
  },
  async credentials() {
    state.credentials = (await list('/credentials')).credentials;
  },
  async users() {
    state.users = await everyPage(async (before) => {
      const answer = await list(/** @type {'/users'} */ (olderThan('/users', before)));
      return { ...answer, items: answer.users };
    });
  },
  async stats() {
    const { credentials, window } = await list('/delivery-stats');
    state.stats = credentials;
    state.statsWindow = window;
  },
  async trust() {
    state.trust = (await list('/trust')).certificates;
    // The setting never changes while the emulator runs: read once (copy as curl names the file).
    if (state.caFile === undefined)
      state.caFile = /** @type {{ caFile?: string | null }} */ (await api('/config')).caFile ?? null;
  },
  async faults() {
    state.faults = (await list('/faults')).faults;
  },
  async outages() {
    state.outages = (await list('/outages')).outages;
  },
  async journal() {
    // The setting never changes while the emulator runs: read once.
    if (state.journalOff === null)
      state.journalOff =
        /** @type {{ journalEntries?: number }} */ (await api('/config')).journalEntries === 0;
    // The newest MAX_JOURNAL calls, the most the page shows.
    state.journal = (await list(/** @type {'/requests'} */ (`/requests?limit=${MAX_JOURNAL}`))).requests;
  },
  async statuses() {
    // The accepted statuses of manual redelivery and the conformance kit's case ids, as the admin API
    // documents them (they never change).
    if (state.bookingStatuses.length) return;
    /** @type {{ components: { schemas: Record<string, { properties: Record<string, { enum: string[] }> }> } }} */
    const openapi = /** @type {any} */ (await api('/openapi.json'));
    const { schemas } = openapi.components;
    state.bookingStatuses = schemas.RedeliverInput?.properties.status?.enum ?? [];
    state.caseIds = schemas.VerifyCase?.properties.id?.enum ?? [];
  },
  async detail() {
    // Answers may arrive out of order: only the last request's answer is shown.
    const ticket = ++detailRequests;
    const id = state.selected;
    const [detail, gz] = id
      ? await Promise.all([
          /** @type {Promise<Detail | null>} */ (
            api(`/notifications/${id}`).catch(missing(id, 'detailMissing'))
          ),
          // The same bytes the receiver got, for the one-paste curl (unchanged once made: read once).
          state.detail?.id === id && state.detailGz
            ? state.detailGz
            : adminFetch(`${ADMIN}/notifications/${id}/body.gz`)
                .then(async (res) => (res.ok ? new Uint8Array(await res.arrayBuffer()) : null))
                .catch(() => null),
        ])
      : [null, null];
    if (ticket === detailRequests) {
      state.detail = detail;
      state.detailGz = gz;
      if (detail) state.detailMissing = null;
    }
  },
  async journalDetail() {
    const id = state.journalSelected;
    const detail = id
      ? /** @type {JournalDetail | null} */ (
          await api(`/requests/${id}`).catch(missing(id, 'journalMissing'))
        )
      : null;
    if (id === state.journalSelected) {
      state.journalDetail = detail;
      if (detail) state.journalMissing = null;
    }
  },
  // A page the admin API answers (the filters shown, a text search's included, and where the page
  // starts): a page, never megabytes; a newer read aborts the one in flight.
  async page() {
    current?.abort();
    if (!serverPaged()) {
      current = null;
      state.page.ids = null;
      return;
    }
    const controller = new AbortController();
    current = controller;
    const p = state.page;
    const q = new URLSearchParams(filterQuery());
    q.set('limit', String(state.filters.text.trim() ? SEARCH_ROWS : MAX_ROWS));
    if (p.anchor === 'before' && p.cursor) q.set('before', p.cursor);
    if (p.anchor === 'after' && p.cursor) q.set('after', p.cursor);
    if (p.anchor === 'oldest') q.set('page', 'oldest');
    /** @type {NotificationList} */
    let answer;
    try {
      answer = /** @type {NotificationList} */ (
        await api(`/notifications?${q}`, { signal: controller.signal })
      );
    } catch (err) {
      if (controller.signal.aborted) return;
      if (current === controller) current = null;
      // A cursor a reset or the retention took: the newest page instead.
      if (err instanceof ApiError && err.status === 400 && /^(before|after)$/.test(err.details.path ?? '')) {
        toNewest();
        return loaders.page?.();
      }
      throw err;
    }
    if (current !== controller) return;
    current = null;
    for (const n of answer.notifications) upsert(n);
    p.ids = answer.notifications.map((n) => n.id).reverse();
    p.total = answer.total ?? answer.notifications.length;
    p.nextCursor = answer.nextCursor ?? null;
    p.newerCursor = answer.newerCursor ?? null;
    // Paged up to the newest: the newest page again, kept live.
    if (p.anchor === 'after' && p.newerCursor === null) {
      p.anchor = 'newest';
      p.cursor = null;
    }
  },
};

/** The lists whose last read failed: their error stays on the status line until each reads again. */
const failedLoads = new Set();

/**
 * A read of one notification or call failed: a 404 says the emulator does not have it (the view says
 * so instead of "Loading…"); any other failure leaves it to the next read.
 * @param {string} id @param {'detailMissing' | 'journalMissing'} key
 */
const missing = (id, key) => (/** @type {unknown} */ err) => {
  if (err instanceof ApiError && err.status === 404) state[key] = id;
  return null;
};

/** @param {...string} names */
export async function load(...names) {
  await Promise.all(
    names.map(async (n) => {
      try {
        await loaders[n]?.();
        failedLoads.delete(n);
      } catch (err) {
        failedLoads.add(n);
        say(err instanceof Error ? err.message : String(err), true, 'load');
      }
    }),
  );
  if (failedLoads.size === 0) unsay('load');
  render();
}

export const loadAll = async () => {
  await load(...Object.keys(loaders));
  state.loaded = true;
  render();
};
let detailRequests = 0;
/** @type {AbortController | null} the text search under way */
let current = null;
/** Whether a text search is under way. */
export const pageInFlight = () => current !== null;

/** Whether the list shown is a page the admin API answers (filters, or not at the newest end). */
export const serverPaged = () => filterQuery() !== '' || state.page.anchor !== 'newest';

/** Back to the newest page (the filters changed, or a cursor is gone); `at` and the rows go too. */
export function toNewest() {
  Object.assign(state.page, {
    anchor: 'newest',
    cursor: null,
    at: '',
    ids: null,
    nextCursor: null,
    newerCursor: null,
  });
}

/** The number in a notification id (`n-000123` → 123): ids grow with creation. @param {string} id */
export const idNumber = (id) => Number(id.slice(id.lastIndexOf('-') + 1));

/** @type {string[] | null} the held ids, newest first (null: to be sorted again) */
let sortedIds = null;
/** Whether the first page was read since the stream connected: each notification created after it adds one to `total`. */
let counting = false;
/** How many the retention setting had dropped when `total` was read (the first page's `retention.dropped`). */
let droppedCounted = 0;

/** The ids of the notifications held, newest first. */
export function heldIds() {
  sortedIds ??= [...state.notifications.keys()].sort((a, b) => idNumber(b) - idNumber(a));
  return sortedIds;
}

/** Forgets every notification held (a reset, or the stream connected again: the newest page is read anew). */
export function forgetNotifications() {
  state.notifications.clear();
  sortedIds = null;
  counting = false;
  droppedCounted = 0;
  state.total = 0;
}

/** A notification the stream says was created: held, and counted once the first page was read. @param {Summary} n */
export function created(n) {
  if (counting && !state.notifications.has(n.id)) state.total++;
  upsert(n);
}

/**
 * How far a notification has got, to tell the newer of two views of it (the stream's frames and a
 * list read meanwhile arrive in either order): each attempt ended counts 4, leaving `pending` 2 and
 * an attempt in flight 1 (an attempt starts after the last one ended and before it ends itself).
 * @param {Summary} n
 */
const progress = (n) => 4 * n.attemptCount + (n.state === 'pending' ? 0 : 2) + (n.inFlight ? 1 : 0);

/**
 * Keeps the newest view of a notification, whether it came from the stream or from a list read
 * meanwhile (`progress`; of two as far, the later). Past HELD_MAX the oldest not on the page shown
 * (nor opened) are forgotten.
 * @param {Summary} n
 */
export function upsert(n) {
  const known = state.notifications.get(n.id);
  if (!known || progress(n) >= progress(known)) state.notifications.set(n.id, n);
  if (known) return;
  sortedIds = null;
  if (state.notifications.size <= HELD_MAX + HELD_MAX / 10) return;
  const keep = new Set([...(state.page.ids ?? []), ...(state.selected ? [state.selected] : [])]);
  const ids = heldIds();
  for (let i = ids.length - 1; i >= HELD_MAX; i--) {
    const id = /** @type {string} */ (ids[i]);
    if (!keep.has(id)) state.notifications.delete(id);
  }
  sortedIds = null;
}

/**
 * Settled notifications the retention setting dropped (the stream's `notifications_dropped`): no
 * longer held, shown or counted; `dropped` (since the start or a reset) tells what the count the
 * page holds already left out.
 * @param {{ ids: readonly string[], dropped: number }} frame
 */
export function dropNotifications({ ids, dropped }) {
  for (const id of ids) state.notifications.delete(id);
  sortedIds = null;
  if (counting && dropped > droppedCounted)
    state.total = Math.max(0, state.total - (dropped - droppedCounted));
  droppedCounted = Math.max(droppedCounted, dropped);
  const gone = new Set(ids);
  const p = state.page;
  if (p.ids?.some((id) => gone.has(id))) {
    const before = p.ids.length;
    p.ids = p.ids.filter((id) => !gone.has(id));
    p.total = Math.max(0, p.total - (before - p.ids.length));
  }
  if (state.selected && gone.has(state.selected)) {
    state.detail = null;
    state.detailMissing = state.selected;
  }
}

/**
 * An event of the stream: the BookingStatus of each reservation it changed, kept without reading the
 * reservations again (the Void and Exchange choices follow at once).
 * @param {{ at: string, reservations: ReadonlyArray<{ bookingId: number, bookingNumber: string, status: string }> }} event
 */
export function applyEvent({ at, reservations }) {
  for (const r of reservations) {
    const known = state.reservations.get(r.bookingId);
    state.reservations.set(r.bookingId, {
      ...known,
      bookingId: r.bookingId,
      bookingNumber: r.bookingNumber,
      status: /** @type {ReservationSummary['status']} */ (r.status),
      updatedAt: at,
    });
  }
}

/** @type {Record<string, ReturnType<typeof setTimeout> | undefined>} */
const timers = {};
/**
 * Reads this list once within `ms` of a change, however many follow: a throttle, not a debounce, so a
 * steady stream of events (one every 100 ms for minutes) still refreshes it every `ms`.
 * @param {string} name
 * @param {number} [ms]
 */
export function loadSoon(name, ms = 200) {
  if (timers[name] !== undefined) return;
  timers[name] = setTimeout(() => {
    timers[name] = undefined;
    load(name);
  }, ms);
}

/**
 * `loadSoon` for a view that reads its own data (`read`): once within `ms` of a change.
 * @param {string} name @param {() => Promise<void>} read @param {number} ms
 */
export function loadSoonWith(name, read, ms) {
  if (timers[name] !== undefined) return;
  timers[name] = setTimeout(() => {
    timers[name] = undefined;
    read().catch((err) => say(err instanceof Error ? err.message : String(err), true, 'load'));
  }, ms);
}

/**
 * How often a stream of attempts may make the page read the delivery figures, or the page of a
 * filtered list, again: read five times a second they held up the emulator's other answers, a
 * search's among them. (The reservations are never read again: the stream's events carry them.)
 */
export const STREAM_RELOAD_MS = 2000;

// Redraws are coalesced to one per animation frame; the entry module says how to draw.
let draw = () => {};
let drawPending = false;

/** Sets the function that draws the page. @param {() => void} fn */
export function setDraw(fn) {
  draw = fn;
}

/** The element to focus once a draw shows it (what was opened or created: a CSS selector), else ''. */
let focusNext = '';

/**
 * Moves the keyboard to the element `selector` names once a draw shows it: what was opened or
 * created (a view loads after the click, so the element may come a few draws later; the selector
 * names the new one, e.g. by its data-id, not the one it replaces).
 * @param {string} selector
 */
export function focusWhenDrawn(selector) {
  focusNext = selector;
  render();
}

/** Asks for a redraw (at most one per frame). */
export function render() {
  if (drawPending) return;
  drawPending = true;
  const run = () => {
    if (!drawPending) return;
    drawPending = false;
    draw();
    const el = focusNext ? /** @type {HTMLElement | null} */ (document.querySelector(focusNext)) : null;
    if (el) {
      focusNext = '';
      el.focus();
    }
  };
  requestAnimationFrame(run);
  // A page the browser counts as hidden (a background tab) gets no animation frames: the timer
  // draws it anyway, whichever comes first.
  setTimeout(run, 100);
}
