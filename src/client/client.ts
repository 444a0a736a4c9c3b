import { AdminApiError, AdminUnreachableError } from './errors.js';
import type * as T from './types.js';

export interface AdminClientOptions {
  /** fetch implementation (default: the global one). */
  fetch?: typeof fetch;
  /** Per-request limit in ms for ordinary calls (default 30000); waits add their own timeout. */
  timeoutMs?: number;
}

type Query = Record<string, string | number | boolean | undefined>;

/**
 * Typed client of the emulator's admin API (docs/admin-api.md). Every method is one HTTP call; an
 * error answer becomes an `AdminApiError` carrying the server's code and message.
 */
export class AdminClient {
  /** Base URL of the emulator, without trailing slash, e.g. `http://127.0.0.1:8080`. */
  readonly baseUrl: string;
  readonly #fetch: typeof fetch;
  readonly #timeoutMs: number;

  constructor(baseUrl: string, options: AdminClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/\/+$/, '');
    this.#fetch = options.fetch ?? fetch;
    this.#timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** `GET /health`; resolves with `starting` (not an error) while the emulator warms up. */
  health(): Promise<T.Health> {
    return this.#call('GET', '/health', { okStatuses: [503] });
  }
  /** `GET /config`: the effective settings the emulator runs with (no secrets). */
  config(): Promise<T.EffectiveConfig> {
    return this.#call('GET', '/config');
  }
  /** `POST /reset`: forgets reservations, notifications, tokens, journal and faults. */
  reset(): Promise<{ status: 'reset' }> {
    return this.#call('POST', '/reset');
  }

  /** Lists credentials. */
  async listCredentials(): Promise<T.Credential[]> {
    return (await this.#call<{ credentials: T.Credential[] }>('GET', '/credentials')).credentials;
  }
  /** Adds a credential (`id` generated when absent). */
  addCredential(input: T.CredentialInput): Promise<T.Credential> {
    return this.#call('POST', '/credentials', { body: input });
  }
  /** Deletes a credential by id. */
  async deleteCredential(id: string): Promise<void> {
    await this.#call('DELETE', `/credentials/${encodeURIComponent(id)}`);
  }

  /** Lists the certificates trusted for https:// destinations besides the system roots. */
  async listTrusted(): Promise<T.TrustedCertificate[]> {
    return (await this.#call<{ certificates: T.TrustedCertificate[] }>('GET', '/trust')).certificates;
  }
  /** Trusts the PEM CA certificate(s) for later deliveries; answers the ones that were new. */
  async trust(pem: string): Promise<T.TrustedCertificate[]> {
    return (await this.#call<{ added: T.TrustedCertificate[] }>('POST', '/trust', { body: { pem } })).added;
  }

  /** Stops trusting the certificate with this SHA-256 fingerprint (as `listTrusted` shows it). */
  async untrust(fingerprint: string): Promise<void> {
    await this.#call('DELETE', `/trust/${encodeURIComponent(fingerprint)}`);
  }

  /** Lists GetAccessToken users. */
  async listUsers(): Promise<T.UserView[]> {
    return (await this.#call<{ users: T.UserView[] }>('GET', '/users')).users;
  }
  /** Adds a GetAccessToken user; the answer leaves the password out. */
  addUser(user: T.User): Promise<T.UserView> {
    return this.#call('POST', '/users', { body: user });
  }
  /** Deletes a user by username. */
  async deleteUser(username: string): Promise<void> {
    await this.#call('DELETE', `/users/${encodeURIComponent(username)}`);
  }

  /** Emits an Issue, Void or Exchange event; delivery runs in the background. */
  emitEvent(input: T.EventInput): Promise<T.EventResult> {
    return this.#call('POST', '/events', { body: input });
  }
  /** Lists reservations. */
  async listReservations(): Promise<T.ReservationSummary[]> {
    return (await this.#call<{ reservations: T.ReservationSummary[] }>('GET', '/reservations')).reservations;
  }
  /** One reservation with its last body and history. */
  getReservation(bookingId: number): Promise<T.Reservation> {
    return this.#call('GET', `/reservations/${bookingId}`);
  }
  /** Manual redelivery with the chosen BookingStatus. */
  redeliver(bookingId: number, status: T.BookingStatus): Promise<T.EventResult> {
    return this.#call('POST', `/reservations/${bookingId}/redeliver`, { body: { status } });
  }

  /** Lists notifications (summaries), optionally filtered. */
  listNotifications(query: T.NotificationQuery = {}): Promise<T.NotificationList> {
    return this.#call('GET', '/notifications', { query: { ...query } });
  }
  /**
   * Waits until no matching notification has an attempt in flight, then lists them; `settled` is
   * false when `timeoutMs` (default 10000) passed first.
   */
  waitSettled(query: T.NotificationQuery = {}, timeoutMs = 10_000): Promise<T.NotificationList> {
    return this.#call('GET', '/notifications', {
      query: { ...query, wait: 'settled', timeoutMs },
      timeoutMs: timeoutMs + this.#timeoutMs,
    });
  }
  /** One notification with headers, body and attempts. */
  getNotification(id: string): Promise<T.Notification> {
    return this.#call('GET', `/notifications/${encodeURIComponent(id)}`);
  }
  /** Runs a redelivery batch now. */
  runRedelivery(): Promise<T.BatchResult> {
    return this.#call('POST', '/redelivery/run');
  }

  /** The emulator clock. */
  getClock(): Promise<T.ClockState> {
    return this.#call('GET', '/clock');
  }
  /** Moves a manual clock (`{by: 'PT1H'}`, `{to: ISO}` or `{to: 'next-batch'}`); crossed batches finish first. */
  advanceClock(input: T.AdvanceInput): Promise<T.AdvanceResult> {
    return this.#call('POST', '/clock/advance', { body: input });
  }

  /** Issued tokens with their expiry. */
  async listTokens(username?: string): Promise<T.TokenRecord[]> {
    return (await this.#call<{ tokens: T.TokenRecord[] }>('GET', '/tokens', { query: { username } })).tokens;
  }
  /** Revokes a token. */
  async revokeToken(token: string): Promise<void> {
    await this.#call('DELETE', `/tokens/${encodeURIComponent(token)}`);
  }
  /** The GetAccessToken journal, optionally filtered. */
  async listRequests(query: T.JournalQuery = {}): Promise<T.JournalEntry[]> {
    return (await this.#call<{ requests: T.JournalEntry[] }>('GET', '/requests', { query: { ...query } }))
      .requests;
  }

  /** Adds a GetAccessToken fault (delay, status, malformed body, dropped connection). */
  addFault(input: T.FaultInput): Promise<T.Fault> {
    return this.#call('POST', '/faults', { body: input });
  }
  /** Lists active faults. */
  async listFaults(): Promise<T.Fault[]> {
    return (await this.#call<{ faults: T.Fault[] }>('GET', '/faults')).faults;
  }
  /** Removes one fault, or all when no id is given. */
  async clearFaults(id?: string): Promise<void> {
    await this.#call('DELETE', id === undefined ? '/faults' : `/faults/${encodeURIComponent(id)}`);
  }

  /** Adds a simulated outage: the next N attempts, or a window of emulator time, fail without a send. */
  addOutage(input: T.OutageInput): Promise<T.Outage> {
    return this.#call('POST', '/outages', { body: input });
  }
  /** Lists outages with their status and the attempts they failed. */
  async listOutages(): Promise<T.Outage[]> {
    return (await this.#call<{ outages: T.Outage[] }>('GET', '/outages')).outages;
  }
  /** Removes one outage, or all when no id is given. */
  async clearOutages(id?: string): Promise<void> {
    await this.#call('DELETE', id === undefined ? '/outages' : `/outages/${encodeURIComponent(id)}`);
  }

  /** Runs the steps of the scenario the server was started with (`serve --scenario`). */
  runScenario(): Promise<unknown> {
    return this.#call('POST', '/scenarios/run', { timeoutMs: 10 * 60_000 });
  }

  async #call<R>(
    method: string,
    path: string,
    opts: { body?: unknown; query?: Query; okStatuses?: number[]; timeoutMs?: number } = {},
  ): Promise<R> {
    const url = new URL(`${this.baseUrl}/__admin${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {}))
      if (v !== undefined) url.searchParams.set(k, String(v));
    const request = `${method} /__admin${path}`;
    let res: Response;
    try {
      res = await this.#fetch(url, {
        method,
        headers: opts.body === undefined ? {} : { 'content-type': 'application/json' },
        ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
        signal: AbortSignal.timeout(opts.timeoutMs ?? this.#timeoutMs),
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
    let body: unknown = text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      // Not JSON: kept as text for the error message.
    }
    if (!res.ok && !opts.okStatuses?.includes(res.status))
      throw AdminApiError.fromResponse(request, res.status, body);
    return body as R;
  }
}
