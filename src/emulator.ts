import { randomInt } from 'node:crypto';
import { ActivityBus } from './activity/bus.js';
import { announceChanges } from './activity/changes.js';
import { logActivity } from './activity/log-lines.js';
import { type AuthService, createAuthService } from './auth/index.js';
import { ChangeStream } from './change-stream.js';
import { type Clock, createClock, timeoutSpanWarning } from './clock/index.js';
import {
  OPTION_NAMES,
  resolveSettings,
  type SettingNames,
  type Settings,
  type SettingsInput,
} from './config/index.js';
import { DeliveryService, type Sender } from './delivery/index.js';
import { TRUST_EXPIRY_WARNING_DAYS, trustExpiryWarnings } from './delivery/trust.js';
import { createLogger, flushLog, type Logger, silentLogger } from './log.js';
import { RESET } from './model/change-sink.js';
import { ReservationStore } from './reservations/index.js';
import { PersistentState } from './store/index.js';

/** What an emulator instance can be given instead of its defaults (tests pass a manual clock, a logger). */
export interface EmulatorDeps {
  clock?: Clock;
  logger?: Logger;
  /** Sends notification attempts (default: an HttpSender built from the settings). */
  sender?: Sender;
  /** How messages name settings (default: as options, `caFile`); the CLI names its flags and files. */
  settingNames?: SettingNames;
}

/**
 * Records loaded at start (from `--config` or `--scenario` files). Each service validates its own
 * list with its admin-API schema, so a bad entry fails start-up with the same message the API gives.
 */
export interface EmulatorPreload {
  users?: unknown[];
  credentials?: unknown[];
  /** PEM certificates trusted from the start (a scenario's HTTPS receivers), as `POST /__admin/trust` would. */
  trust?: string[];
  /**
   * How errors name the lists (default `users`, `credentials`, as in a config file), e.g.
   * `REPORTBO_USERS` when a list came from the environment (decision 0062).
   */
  origins?: { users?: string; credentials?: string };
  /** PEM text trusted from the start as a setting (`REPORTBO_CA_PEM`), and how errors name it. */
  caPem?: { pem: string; where: string };
}

/**
 * One emulator instance: its settings, its clock and its domain services. Building it does no I/O;
 * `start()` starts timers, `stop()` stops them. The HTTP app is built on top by `createApp`.
 */
export interface Emulator {
  readonly settings: Settings;
  /** The seed every generated value derives from (given, or chosen at creation and logged). */
  readonly seed: number;
  readonly clock: Clock;
  readonly log: Logger;
  /** How messages name a setting to this emulator's user (a flag, a scenario key, an option). */
  readonly names: SettingNames;
  /**
   * What happens, as it happens: events, notifications and attempts, batches, GetAccessToken calls,
   * admin changes. The info log and the live stream (`GET /__admin/stream`) listen to it.
   */
  readonly activity: ActivityBus;
  /**
   * Every change of the emulator's state, in order (src/change-stream.ts): every store tells it here;
   * a data dir keeps it, and the activity bus is derived from it.
   */
  readonly changes: ChangeStream;
  /** GetAccessToken: users, tokens, the call journal and fault rules (src/auth). */
  readonly auth: AuthService;
  /** Reservations and their lifecycle: Issue, Void, Exchange, manual redelivery (src/reservations). */
  readonly reservations: ReservationStore;
  /** Credentials, routing, notifications and redelivery batches (src/delivery). */
  readonly delivery: DeliveryService;
  /**
   * Resolves once everything the server answers with is ready (e.g. WSDLs parsed, preloaded
   * credentials and the CA file checked); rejects with the first problem.
   */
  readonly ready: Promise<void>;
  /**
   * Why the emulator cannot do its job fully now (`data dir not writable: …`), or undefined:
   * `GET /__admin/health` answers 503 `degraded` with it (decision 0125).
   */
  degraded(): string | undefined;
  /** Forgets reservations, notifications, tokens and the journal; keeps settings, users and credentials. */
  reset(): void;
  /** Starts the clock; `port` is the one the server listens on (a data dir's lock names it). */
  start(port?: number): void;
  stop(): Promise<void>;
}

/** Builds an emulator from settings (validated here) and optional dependencies. */
export function createEmulator(
  input: SettingsInput = {},
  deps: EmulatorDeps = {},
  preload: EmulatorPreload = {},
): Emulator {
  const names = deps.settingNames ?? OPTION_NAMES;
  const settings = resolveSettings(input as Record<string, unknown>, names);
  const seed = settings.seed ?? randomInt(1, 2 ** 31 - 1);
  // Read back before the clock is built: a manual or compressed clock starts where it stood (decision 0080).
  const persisted = settings.dataDir
    ? new PersistentState(settings.dataDir, settings.port, {
        acceptDataLoss: settings.acceptDataLoss,
      })
    : undefined;
  const changes = new ChangeStream({
    unkept: (err, change) =>
      log.error(
        { err, change: change.kind },
        `data dir: could not keep a ${change.kind.replaceAll('_', ' ')} change; it stays in memory until the next snapshot or restart`,
      ),
    observer: (err) => log.error({ err }, 'change observer failed'),
  });
  const clockStart = persisted?.clockStart(settings.clock)?.toISOString() ?? settings.clockStart;
  const clock =
    deps.clock ??
    createClock({
      mode: settings.clock,
      hourMs: settings.hourMs,
      ...(clockStart ? { start: new Date(clockStart) } : {}),
      onListenerError: (err) => log.error({ err }, 'redelivery batch listener failed'),
      changes,
    });
  const now = () => clock.now();
  const log =
    deps.logger ??
    (settings.logLevel === 'silent'
      ? silentLogger()
      : createLogger(settings.logLevel, {
          format: settings.logFormat,
          now,
          emulatorTime: clock.mode !== 'real',
        }));
  const activity = new ActivityBus((err) => log.error({ err }, 'activity listener failed'));
  // Where the attempt lines' inspector links point: the port is known once the server listens.
  const reachableHost = ['0.0.0.0', '::'].includes(settings.host) ? '127.0.0.1' : settings.host;
  let origin = `http://${reachableHost.includes(':') ? `[${reachableHost}]` : reachableHost}:${settings.port}`;
  const stopActivityLog = logActivity(activity, log, {
    clockMode: clock.mode,
    origin: () => origin,
    linesPerSecond: settings.logLinesPerSecond,
  });
  announceChanges(changes, activity);
  if (clock.mode === 'compressed') {
    const hourMs = clock.describe().hourMs ?? settings.hourMs;
    const warning = timeoutSpanWarning(settings.responseTimeoutMs, hourMs);
    if (warning) log.warn({ responseTimeoutMs: settings.responseTimeoutMs, hourMs }, warning);
  }

  const resetters: Array<() => void> = [];
  const stoppers: Array<() => Promise<void> | void> = [];

  const auth = createAuthService({
    clock,
    changes,
    journalEntries: settings.journalEntries,
    ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
  });
  const listName = { users: 'users', credentials: 'credentials', ...preload.origins };
  for (const [i, u] of (preload.users ?? []).entries()) auth.users.add(u, `${listName.users}[${i}]`);
  resetters.push(() => auth.reset()); // users are kept (product rule "Admin API": reset)

  const reservations = new ReservationStore({
    clock,
    seed,
    exchangeNotifies: settings.exchangeNotifies,
    changes,
  });
  resetters.push(() => reservations.state.apply(RESET));

  const delivery = new DeliveryService(settings, {
    clock,
    log,
    names,
    changes,
    ...(deps.sender ? { sender: deps.sender } : {}),
  });
  // Preloaded credentials and a CA file are checked before the emulator is ready: a bad credential or
  // CA file rejects `ready` (startServer awaits it before listening).
  const preloaded = (async () => {
    for (const [i, cr] of (preload.credentials ?? []).entries())
      delivery.credentials.add(cr, `${listName.credentials}[${i}]`);
    for (const pem of preload.trust ?? []) delivery.trust(pem, 'scenario', "the scenario receivers' CA");
    if (preload.caPem) delivery.trust(preload.caPem.pem, 'ca-pem', preload.caPem.where);
    await delivery.loadCaFile();
    const trusted = delivery.trustStore.list();
    for (const warning of trustExpiryWarnings(trusted, Date.now()))
      log.warn({ trustExpiryWithinDays: TRUST_EXPIRY_WARNING_DAYS }, warning);
  })();
  // Spec "Limits": redelivery batches at minute 55; the clock decides when that is.
  clock.onBatch(async (at, skip) => {
    if (skip) delivery.outbox.recordSkipped(at, skip.reason);
    else await delivery.outbox.runBatch(at);
  });
  resetters.push(() => delivery.reset()); // credentials are kept (product rule "Admin API": reset)
  stoppers.push(async () => {
    // Attempts in flight may end within the grace; the rest are recorded as interrupted (decision 0043).
    const graceMs = settings.shutdownGraceMs;
    const running = delivery.outbox.runningAttempts;
    const stopping = delivery.drain(graceMs);
    if (running > 0)
      log.info(
        { running, graceMs },
        `waiting up to ${graceMs} ms for ${running} delivery attempt(s) in flight`,
      );
    const drained = await stopping;
    if (drained.interrupted > 0)
      log.warn(
        { ...drained, graceMs },
        `${drained.interrupted} delivery attempt(s) did not end within ${graceMs} ms: recorded as interrupted, their notifications stay pending`,
      );
    delivery.close();
  });

  // The data dir is read back after the preloads (a config or scenario's users and credentials win
  // over the data dir's).
  const ready = persisted ? preloaded.then(() => persisted.attach(emulator)) : preloaded;
  if (persisted) stoppers.push(() => persisted.close());

  const emulator: Emulator = {
    settings,
    seed,
    clock,
    log,
    names,
    activity,
    changes,
    auth,
    reservations,
    delivery,
    ready,
    degraded: () => persisted?.degraded(),
    reset() {
      changes.emit(RESET, {
        apply: () => {
          for (const r of resetters) r();
        },
      });
    },
    start(port) {
      if (port !== undefined) {
        persisted?.listening(port);
        origin = origin.replace(/:\d+$/, `:${port}`);
      }
      clock.start();
      changes.emitMade({ kind: 'clock_started' });
    },
    async stop() {
      clock.stop();
      for (const s of stoppers) await s();
      // A second's summary still held (condensed lines) is written before the log's last flush.
      stopActivityLog();
      flushLog(log);
    },
  };
  return emulator;
}
