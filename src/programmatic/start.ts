import { writeFile } from 'node:fs/promises';
import { serveSettings, startScenarioFile } from '../cli/serve.js';
import { AdminClient } from '../client/index.js';
import type * as T from '../client/types.js';
import { unknownKeyMessage } from '../config/closest-key.js';
import { SERVE_OPTIONS, type SettingsInput } from '../config/index.js';
import { EmulatorError, InputError } from '../errors.js';
import { launchEmulator } from '../server.js';

/**
 * Options of `startEmulator`: every `serve` setting (camelCase, see docs/configuration.md) plus
 * users and credentials to load before the first request. Defaults differ from `serve` where a test
 * suite wants them to: port 0 (a free port), a manual clock, and a silent log.
 * `config` and `scenario` load their files exactly as `serve --config` / `--scenario` do (the
 * options outrank the files, as flags do); `urlFile` gets the listening URL; the environment is
 * not read. An unknown key is an error naming the closest valid one.
 */
export interface StartEmulatorOptions extends SettingsInput {
  /** GetAccessToken users present from the start (replace a config file's `users`, as a flag does). */
  users?: T.User[];
  /** Credentials (delivery destinations) present from the start (replace a config file's list). */
  credentials?: T.CredentialInput[];
  /** A PEM CA certificate (or several) to trust for HTTPS receivers, besides `caFile`. */
  caPem?: string;
}

/** Every key `startEmulator` takes: the `serve` settings (incl. users, credentials, caPem). */
const OPTION_KEYS: readonly string[] = SERVE_OPTIONS.map((o) => o.key);

/** A running in-process emulator and typed helpers over its admin API. */
export interface StartedEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** `{base_url}` of GetAccessToken for each API version, e.g. `http://127.0.0.1:41234/api/1.7`. */
  readonly baseUrls: { readonly '1.6': string; readonly '1.7': string };
  /** The full admin API client, for what the helpers below do not cover. */
  readonly client: AdminClient;
  /** Emits an Issue, Void or Exchange event; delivery runs in the background. */
  emit(event: T.EventInput): Promise<T.EventResult>;
  /** Shortcut for `emit({ type: 'Issue', overrides })`. */
  issue(overrides?: Record<string, unknown>): Promise<T.EventResult>;
  /**
   * Resolves once no (matching) notification has an attempt in flight, with their summaries;
   * rejects with code `not_settled` when `timeoutMs` (default 10000) passes first.
   */
  waitUntilSettled(query?: T.NotificationQuery, timeoutMs?: number): Promise<T.NotificationSummary[]>;
  /** Notification summaries, optionally filtered by state, credential or booking. */
  notifications(query?: T.NotificationQuery): Promise<T.NotificationSummary[]>;
  /** One notification with its headers, body and every attempt. */
  notification(id: string): Promise<T.Notification>;
  /**
   * Moves the manual clock and runs every redelivery batch it crosses: a duration (`'PT1H'`),
   * `'next-batch'`, an ISO instant, or the admin API's `{ by }` / `{ to }` object.
   */
  advanceClock(to: string | T.AdvanceInput): Promise<T.AdvanceResult>;
  /** Runs a redelivery batch now. */
  runRedelivery(): Promise<T.BatchResult>;
  /** Adds a GetAccessToken user; the answer leaves the password out. */
  addUser(user: T.User): Promise<T.UserView>;
  addCredential(credential: T.CredentialInput): Promise<T.Credential>;
  /** Forgets reservations, notifications, tokens, the journal and faults; keeps users and credentials. */
  reset(): Promise<void>;
  /** Stops delivery and the clock and closes the port. Safe to call twice. */
  stop(): Promise<void>;
}

/** Starts an emulator in this process, listening on loopback, and returns helpers to drive it. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<StartedEmulator> {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new InputError('invalid_option', 'startEmulator expects an options object, e.g. { users: [...] }.');
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.includes(key)) {
      throw new InputError(
        'unknown_option',
        `startEmulator: ${unknownKeyMessage('option', key, OPTION_KEYS)}; the options are the serve settings in camelCase (docs/configuration.md).`,
        { path: key },
      );
    }
  }
  const { users, credentials, ...given } = options;
  // The same loader as `serve` (config file, scenario file, their messages); no environment.
  const { settings, preload, names } = await serveSettings(given, {}, 'startEmulator');
  if (users) preload.users = users;
  if (credentials) preload.credentials = credentials;
  const running = await launchEmulator(
    { port: 0, clock: 'manual', logLevel: 'silent', ...settings },
    { settingNames: names },
    preload,
    startScenarioFile,
  );
  if (settings.urlFile) {
    const file = String(settings.urlFile);
    try {
      await writeFile(file, `${running.url}\n`);
    } catch (err) {
      await running.close();
      throw new InputError(
        'file_unwritable',
        `option urlFile: cannot write the listening URL to ${file} (${(err as Error).message}); choose a writable path.`,
        { path: 'urlFile', file },
      );
    }
  }
  const { adminToken } = running.emulator.settings;
  const client = new AdminClient(running.url, adminToken ? { adminToken } : {});
  const { basePath16, basePath17 } = running.emulator.settings;
  const list = async (query: T.NotificationQuery = {}) =>
    (await client.allNotifications(query)).notifications;

  return {
    url: running.url,
    port: running.port,
    baseUrls: { '1.6': `${running.url}${basePath16}`, '1.7': `${running.url}${basePath17}` },
    client,
    emit: (event) => client.emitEvent(event),
    issue: (overrides) => client.emitEvent({ type: 'Issue', ...(overrides ? { overrides } : {}) }),
    async waitUntilSettled(query = {}, timeoutMs = 10_000) {
      const answer = await client.waitSettled(query, timeoutMs);
      if (answer.settled === false) {
        throw new EmulatorError(
          'not_settled',
          `Deliveries still in flight after ${timeoutMs} ms; a receiver may be slow or hanging (the response timeout is ${running.emulator.settings.responseTimeoutMs} ms). Pass a longer timeoutMs or check notifications().`,
          408,
          'delivery',
          { timeoutMs },
        );
      }
      return answer.notifications;
    },
    notifications: list,
    notification: (id) => client.getNotification(id),
    advanceClock: (to) => client.advanceClock(typeof to === 'string' ? advanceInput(to) : to),
    runRedelivery: () => client.runRedelivery(),
    addUser: (user) => client.addUser(user),
    addCredential: (credential) => client.addCredential(credential),
    async reset() {
      await client.reset();
    },
    stop() {
      return running.close();
    },
  };
}

/** `'next-batch'` and ISO instants move *to*; anything else is a duration to move *by*. */
function advanceInput(value: string): T.AdvanceInput {
  return value === 'next-batch' || /^\d{4}-\d\d-\d\dT/.test(value) ? { to: value } : { by: value };
}
