import type { Answer, CallInput } from '../admin/contract/route.js';
import { ADMIN_ROUTES, type AdminRoutes, type OperationName } from '../admin/contract/routes.js';
import { AdminApiError, AdminUnreachableError } from './errors.js';
import type * as T from './types.js';

export interface AdminClientOptions {
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request limit in ms for ordinary calls (default 30000); waits add their own timeout. */
  timeoutMs?: number;
  /** Headers sent with every request (e.g. a proxy's authorization). */
  headers?: Record<string, string>;
  /** The emulator's admin token (`--admin-token`), sent as `Authorization: Bearer <token>` on every call. */
  adminToken?: string;
}

/** How one call may differ from the client's defaults. */
export interface CallOptions {
  /** Error statuses that still resolve with the body (health answers 503 `starting`). */
  okStatuses?: number[];
  /** This call's limit in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

/** The operations a client calls: every route of the table but those with a `noClient` reason. */
export type ClientOperation = {
  [K in OperationName]: AdminRoutes[K] extends { noClient: string } ? never : K;
}[OperationName];

/** The arguments of `call(op, …)`: the input may be left out when the operation takes none. */
type CallArgs<K extends OperationName> =
  Record<never, never> extends CallInput<AdminRoutes[K]>
    ? [input?: CallInput<AdminRoutes[K]>, options?: CallOptions]
    : [input: CallInput<AdminRoutes[K]>, options?: CallOptions];

/** One method per client operation, by its name: a route added to the table without one fails to compile. */
type ClientMethods = { [K in ClientOperation]: (...args: never[]) => Promise<unknown> };

/**
 * Typed client of the emulator's admin API (docs/admin-api.md). `call(operation, input)` reaches any
 * route of the table (src/admin/contract/routes.ts) with its types; the named methods below are thin
 * conveniences over it. An error answer becomes an `AdminApiError` carrying the server's code and
 * message.
 */
export class AdminClient implements ClientMethods {
  /** Base URL of the emulator, without trailing slash, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;
  readonly #headers: Record<string, string>;

  constructor(baseUrl: string, options: AdminClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
    this.#headers = {
      ...options.headers,
      ...(options.adminToken ? { authorization: `Bearer ${options.adminToken}` } : {}),
    };
  }

  /** `GET /health`; resolves with `starting` or `degraded` (not an error) when not ok. */
  health() {
    return this.call('health', {}, { okStatuses: [503] });
  }
  /** `GET /openapi.json`: the admin API as an OpenAPI 3.1 document. */
  openApi() {
    return this.call('openApi');
  }
  /** `GET /notification.openapi.json`: the notification webhook as an OpenAPI 3.1 document. */
  notificationOpenApi() {
    return this.call('notificationOpenApi');
  }
  /** `GET /notification.asyncapi.json`: the notification webhook as an AsyncAPI 3.0 document. */
  notificationAsyncApi() {
    return this.call('notificationAsyncApi');
  }
  /** `GET /config`: the effective settings the emulator runs with (no secrets). */
  config() {
    return this.call('config');
  }
  /** `POST /reset`: forgets reservations, notifications, tokens, journal and faults. */
  reset() {
    return this.call('reset');
  }

  /** Lists credentials. */
  async listCredentials() {
    return (await this.call('listCredentials')).credentials;
  }
  /** Adds a credential (`id` generated when absent). */
  addCredential(input: T.CredentialInput) {
    return this.call('addCredential', { body: input });
  }
  /** Replaces a credential (the id stays); notifications already made keep their URL and ApiKey. */
  updateCredential(id: string, input: T.CredentialInput) {
    return this.call('updateCredential', { params: { id }, body: input });
  }
  /** Per credential: notifications by state, attempts, success rate, last failure, next batch. */
  async deliveryStats() {
    return (await this.call('deliveryStats')).credentials;
  }
  /** Deletes a credential by id. */
  async deleteCredential(id: string) {
    await this.call('deleteCredential', { params: { id } });
  }

  /** Lists the certificates trusted for https:// destinations besides the system roots. */
  async listTrusted() {
    return (await this.call('listTrusted')).certificates;
  }
  /** Trusts the PEM CA certificate(s) for later deliveries; answers the ones that were new. */
  async trust(pem: string) {
    return (await this.call('trust', { body: { pem } })).added;
  }
  /** Stops trusting the certificate with this SHA-256 fingerprint (as `listTrusted` shows it). */
  async untrust(fingerprint: string) {
    await this.call('untrust', { params: { fingerprint } });
  }

  /** Lists GetAccessToken users (every page). */
  async listUsers() {
    const pages = await olderPages(await this.call('listUsers'), (before) =>
      this.call('listUsers', { query: { before } }),
    );
    return pages.flatMap((p) => p.users);
  }
  /** Adds a GetAccessToken user; the answer leaves the password out. */
  addUser(user: T.User) {
    return this.call('addUser', { body: user });
  }
  /** Replaces a user (the username stays); issued tokens stay valid. */
  updateUser(username: string, user: T.User) {
    return this.call('updateUser', { params: { username }, body: user });
  }
  /** Deletes a user by username. */
  async deleteUser(username: string) {
    await this.call('deleteUser', { params: { username } });
  }

  /** Emits an Issue, Void or Exchange event; delivery runs in the background. */
  emitEvent(input: T.EventInput) {
    return this.call('emitEvent', { body: input });
  }
  /** Lists reservations (every page). */
  async listReservations() {
    const pages = await olderPages(await this.call('listReservations'), (before) =>
      this.call('listReservations', { query: { before } }),
    );
    return pages.flatMap((p) => p.reservations);
  }
  /** One reservation with its last body and history. */
  getReservation(bookingId: number) {
    return this.call('getReservation', { params: { bookingId } });
  }
  /** Manual redelivery with the chosen BookingStatus. */
  redeliver(bookingId: number, status: T.BookingStatus) {
    return this.call('redeliver', { params: { bookingId }, body: { status } });
  }

  /** Lists notifications (summaries), optionally filtered. */
  listNotifications(query: T.NotificationQuery = {}) {
    return this.call('listNotifications', { query });
  }
  /**
   * Waits until no matching notification has an attempt in flight, then lists every one of them
   * (page after page); `settled` is false when `timeoutMs` (default 10000) passed first.
   */
  async waitSettled(query: T.NotificationQuery = {}, timeoutMs = 10_000) {
    const first = await this.call(
      'listNotifications',
      { query: { ...query, wait: 'settled', timeoutMs } },
      { timeoutMs: timeoutMs + this.#timeoutMs },
    );
    return this.#olderPages(query, first);
  }
  /** Every matching notification, oldest first: the list's pages read one after the other. */
  async allNotifications(query: T.NotificationQuery = {}) {
    return this.#olderPages(query, await this.listNotifications(query));
  }
  /** `first` with the pages older than it prepended. */
  async #olderPages(query: T.NotificationQuery, first: T.NotificationList): Promise<T.NotificationList> {
    const pages = await olderPages(first, (before) => this.listNotifications({ ...query, before }));
    return { ...first, notifications: pages.flatMap((p) => p.notifications), nextCursor: null };
  }
  /**
   * The filtered notifications as HAR 1.2 (one entry per attempt, as sent, with the answers); with
   * `format: 'ndjson'` the answer is the NDJSON text (one notification a line).
   */
  exportNotifications(query: T.ExportQuery = {}) {
    return this.call('exportNotifications', { query });
  }
  /** One notification with headers, body and attempts. */
  getNotification(id: string) {
    return this.call('getNotification', { params: { id } });
  }
  /** Retry now: one attempt of a pending notification outside the batch schedule; answers when it ended. */
  retryNotification(id: string) {
    return this.call('retryNotification', { params: { id } });
  }
  /** Resend: a new notification with this one's body (or `body`, edited) to its credential or `credentialIds`. */
  resendNotification(id: string, input: T.ResendInput = {}) {
    return this.call('resendNotification', { params: { id }, body: input });
  }
  /** Bulk retry: every failed notification of a credential since T (`dryRun` only counts). */
  resendFailed(input: T.ResendFailedInput) {
    return this.call('resendFailed', { body: input });
  }
  /** Failures grouped by credential and cause. */
  getTriage() {
    return this.call('getTriage');
  }
  /** Retries one failure group (its key from `getTriage`), each member once. */
  retryTriageGroup(input: T.TriageRetryInput) {
    return this.call('retryTriageGroup', { body: input });
  }
  /** Runs a redelivery batch now. */
  runRedelivery() {
    return this.call('runRedelivery');
  }
  /** The batches run so far, and batch instants skipped with their reason. */
  async listBatches() {
    return (await this.call('listBatches')).batches;
  }

  /** The emulator clock. */
  getClock() {
    return this.call('getClock');
  }
  /** Moves a manual clock (`{by: 'PT1H'}`, `{to: ISO}` or `{to: 'next-batch'}`); crossed batches finish first. */
  advanceClock(input: T.AdvanceInput) {
    return this.call('advanceClock', { body: input });
  }

  /** Issued tokens with their expiry (every page). */
  async listTokens(username?: string) {
    const pages = await olderPages(await this.call('listTokens', { query: { username } }), (before) =>
      this.call('listTokens', { query: { username, before } }),
    );
    return pages.flatMap((p) => p.tokens);
  }
  /** Revokes a token. */
  async revokeToken(token: string) {
    await this.call('revokeToken', { params: { token } });
  }
  /** The GetAccessToken journal, optionally filtered (every page, oldest first). */
  async listRequests(query: T.JournalQuery = {}) {
    const pages = await olderPages(await this.call('listRequests', { query }), (before) =>
      this.call('listRequests', { query: { ...query, before } }),
    );
    return pages.flatMap((p) => p.requests);
  }
  /** One GetAccessToken call with its request and response as sent and received (`exchange`). */
  getRequest(id: string) {
    return this.call('getRequest', { params: { id } });
  }

  /** Adds a GetAccessToken fault (delay, status, malformed body, dropped connection). */
  addFault(input: T.FaultInput) {
    return this.call('addFault', { body: input });
  }
  /** Lists active faults. */
  async listFaults() {
    return (await this.call('listFaults')).faults;
  }
  /** Removes every fault, or only the one with this id. */
  async clearFaults(id?: string) {
    if (id === undefined) await this.call('clearFaults');
    else await this.deleteFault(id);
  }
  /** Removes one fault. */
  async deleteFault(id: string) {
    await this.call('deleteFault', { params: { id } });
  }

  /** Adds a simulated outage: the next N attempts, or a window of emulator time, fail without a send. */
  addOutage(input: T.OutageInput) {
    return this.call('addOutage', { body: input });
  }
  /** Lists outages with their status and the attempts they failed. */
  async listOutages() {
    return (await this.call('listOutages')).outages;
  }
  /** One outage. */
  getOutage(id: string) {
    return this.call('getOutage', { params: { id } });
  }
  /** Removes every outage, or only the one with this id. */
  async clearOutages(id?: string) {
    if (id === undefined) await this.call('clearOutages');
    else await this.deleteOutage(id);
  }
  /** Removes one outage. */
  async deleteOutage(id: string) {
    await this.call('deleteOutage', { params: { id } });
  }

  /** Runs the steps of the scenario the server was started with (`serve --scenario`). */
  runScenario() {
    return this.call('runScenario', {}, { timeoutMs: 10 * 60_000 });
  }
  /** Runs the receiver conformance kit against a receiver; answers the report `verify --json` writes. */
  verify(input: T.VerifyInput) {
    return this.call('verify', { body: input }, { timeoutMs: 10 * 60_000 });
  }

  /** Calls any operation of the route table by name, with its path parameters, query and body. */
  async call<K extends ClientOperation>(operation: K, ...args: CallArgs<K>): Promise<Answer<AdminRoutes[K]>> {
    const [input = {}, options = {}] = args as [
      { params?: Record<string, string | number>; query?: object; body?: unknown }?,
      CallOptions?,
    ];
    const { method, path } = ADMIN_ROUTES[operation];
    const filled = path.replace(/:(\w+)/g, (_, name: string) =>
      encodeURIComponent(String(input.params?.[name])),
    );
    const url = new URL(`${this.baseUrl}/__admin${filled}`);
    for (const [k, v] of Object.entries(input.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const verb = method.toUpperCase();
    const request = `${verb} /__admin${filled}`;
    const { body } = input;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method: verb,
        headers:
          body === undefined ? this.#headers : { ...this.#headers, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs ?? this.#timeoutMs),
      });
    } catch (err) {
      const cause = (err as { cause?: { code?: string; message?: string } }).cause;
      const reason =
        (err as Error).name === 'TimeoutError'
          ? 'no answer in time'
          : (cause?.code ?? cause?.message ?? String(err));
      throw new AdminUnreachableError(this.baseUrl, request, reason);
    }
    const text = await res.text();
    let answer: unknown = text;
    try {
      answer = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the error message.
    }
    if (!res.ok && !options.okStatuses?.includes(res.status))
      throw AdminApiError.fromResponse(request, res.status, answer);
    return answer as Answer<AdminRoutes[K]>;
  }
}

/**
 * A list's page `first` and the pages older than it, oldest first: `before(cursor)` reads the page
 * older than `cursor` (each page's `nextCursor`) until a page reaches the oldest (decision 0236).
 */
async function olderPages<P extends { nextCursor: string | null }>(
  first: P,
  before: (cursor: string) => Promise<P>,
): Promise<P[]> {
  const pages = [first];
  for (let page = first; page.nextCursor; ) {
    page = await before(page.nextCursor);
    pages.unshift(page);
  }
  return pages;
}
