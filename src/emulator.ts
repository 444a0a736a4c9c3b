import { randomInt } from 'node:crypto';
import { type AuthService, createAuthService } from './auth/index.js';
import { type Clock, createClock } from './clock/index.js';
import { resolveSettings, type Settings, type SettingsInput } from './config/index.js';
import { DeliveryService, type Sender } from './delivery/index.js';
import { createLogger, type Logger, silentLogger } from './log.js';
import { ReservationStore } from './reservations/index.js';

/** What an emulator instance can be given instead of its defaults (tests pass a manual clock, a logger). */
export interface EmulatorDeps {
  clock?: Clock;
  logger?: Logger;
  /** Sends notification attempts (default: an HttpSender built from the settings). */
  sender?: Sender;
}

/**
 * Records loaded at start (from `--config` or `--scenario` files). Each service validates its own
 * list with its admin-API schema, so a bad entry fails start-up with the same message the API gives.
 */
export interface EmulatorPreload {
  users?: unknown[];
  credentials?: unknown[];
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
  /** GetAccessToken: users, tokens, the call journal and fault rules (src/auth). */
  readonly auth: AuthService;
  /** Reservations and their lifecycle: Issue, Void, Exchange, manual redelivery (src/reservations). */
  readonly reservations: ReservationStore;
  /** Credentials, routing, notifications and redelivery batches (src/delivery). */
  readonly delivery: DeliveryService;
  /** Resolves once everything the server answers with is ready (e.g. WSDLs parsed). */
  readonly ready: Promise<void>;
  /** Forgets reservations, notifications, tokens and the journal; keeps settings, users and credentials. */
  reset(): void;
  start(): void;
  stop(): Promise<void>;
}

/** Builds an emulator from settings (validated here) and optional dependencies. */
export function createEmulator(
  input: SettingsInput = {},
  deps: EmulatorDeps = {},
  preload: EmulatorPreload = {},
): Emulator {
  const settings = resolveSettings(input as Record<string, unknown>);
  const log =
    deps.logger ?? (settings.logLevel === 'silent' ? silentLogger() : createLogger(settings.logLevel));
  const seed = settings.seed ?? randomInt(1, 2 ** 31 - 1);
  const clock =
    deps.clock ??
    createClock({
      mode: settings.clock,
      hourMs: settings.hourMs,
      ...(settings.clockStart ? { start: new Date(settings.clockStart) } : {}),
      onListenerError: (err) => log.error({ err }, 'redelivery batch listener failed'),
    });

  const resetters: Array<() => void> = [];
  const stoppers: Array<() => Promise<void> | void> = [];
  const readiness: Array<Promise<void>> = [];
  void preload; // consumed by the services below as they are added

  const auth = createAuthService({ clock, ...(settings.seed !== undefined ? { seed: settings.seed } : {}) });
  (preload.users ?? []).forEach((u, i) => auth.users.add(u, `users[${i}]`));
  resetters.push(() => auth.reset()); // users are kept (DESIGN "Admin API": reset)

  const reservations = new ReservationStore({ clock, seed, exchangeNotifies: settings.exchangeNotifies });
  resetters.push(() => reservations.reset());

  const delivery = new DeliveryService(settings, {
    clock,
    log,
    ...(deps.sender ? { sender: deps.sender } : {}),
  });
  (preload.credentials ?? []).forEach((cr, i) => delivery.credentials.add(cr, `credentials[${i}]`));
  readiness.push(delivery.loadCaFile());
  // Spec "Limits": redelivery batches at minute 55; the clock decides when that is.
  clock.onBatch(async (at) => {
    await delivery.outbox.runBatch(at);
  });
  resetters.push(() => delivery.reset()); // credentials are kept (DESIGN "Admin API": reset)
  stoppers.push(() => delivery.close());

  return {
    settings,
    seed,
    clock,
    log,
    auth,
    reservations,
    delivery,
    ready: Promise.all(readiness).then(() => {}),
    reset() {
      for (const r of resetters) r();
    },
    start() {
      clock.start();
    },
    async stop() {
      clock.stop();
      for (const s of stoppers) await s();
    },
  };
}
