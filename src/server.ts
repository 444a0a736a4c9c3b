import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { AdminOptions } from './admin/index.js';
import type { ScenarioRunner } from './admin/scenarios.js';
import { createApp } from './app.js';
import type { SettingsInput } from './config/index.js';
import { createEmulator, type Emulator, type EmulatorDeps, type EmulatorPreload } from './emulator.js';
import { ConflictError, EmulatorError } from './errors.js';

/** How long an idle kept-alive connection stays open: IIS's default connectionTimeout. */
export const IDLE_CONNECTION_MS = 120_000;

/** A listening emulator: its base URL, the instance behind it and a way to stop both. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:8080` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  readonly emulator: Emulator;
  close(): Promise<void>;
}

/**
 * Builds an emulator, waits until it is ready, listens, and starts its clock. `app` is handed to
 * the admin API (e.g. the runner of a scenario loaded by `serve --scenario`).
 */
export async function startServer(
  input: SettingsInput = {},
  deps: EmulatorDeps = {},
  preload: EmulatorPreload = {},
  app: AdminOptions = {},
): Promise<RunningEmulator> {
  const emulator = createEmulator(input, deps, preload);
  await emulator.ready;
  const http = createApp(emulator, app);
  const server = createAdaptorServer({ fetch: http.fetch, hostname: emulator.settings.host });
  // An idle kept-alive connection stays open as long as IIS keeps one (its connectionTimeout, 120 s),
  // not Node's 5 s: a client that pauses a few seconds between calls, as an SDK or a test on a busy
  // machine does, would otherwise meet a connection the server closed as it reused it (ECONNRESET).
  (server as Server).keepAliveTimeout = IDLE_CONNECTION_MS;
  try {
    await new Promise<void>((resolve, reject) => {
      const failed = (err: NodeJS.ErrnoException) => reject(listenError(err, emulator));
      server.once('error', failed);
      server.listen(emulator.settings.port, emulator.settings.host, () => {
        server.off('error', failed);
        resolve();
      });
    });
  } catch (err) {
    // Nothing of a server that never listened may keep the process alive (a CLI exits with the message).
    await emulator.stop();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  emulator.start(port);
  const host =
    emulator.settings.host === '0.0.0.0' || emulator.settings.host === '::'
      ? '127.0.0.1'
      : emulator.settings.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    emulator,
    close() {
      closing ??= (async () => {
        await emulator.stop();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          if ('closeAllConnections' in server) server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}

/** A scenario file started beside an emulator (`serve --scenario`, the `scenario` option of `startEmulator`). */
export interface CompanionScenario {
  /** The preload with the scenario's users, credentials and receiver CA added. */
  readonly preload: EmulatorPreload;
  /** Runs its steps against the emulator at `url` (`POST /__admin/scenarios/run`). */
  run(url: string, adminToken?: string): ReturnType<ScenarioRunner>;
  /** Stops its receivers. */
  close(): Promise<void>;
}

/** Starts the scenario file `file` beside an emulator, its receivers first (src/scenarios/serve.ts). */
export type StartScenario = (file: string, preload: EmulatorPreload) => Promise<CompanionScenario>;

/**
 * The one assembly of `serve` and `startEmulator`, from loaded settings: the scenario the settings
 * name starts first (its credentials may point at its receivers), then the server, whose admin API
 * gets the scenario's runner; `close()` stops the server, then the scenario's receivers. The
 * scenario code is handed in (`startScenario`): it starts servers itself, so this module may not
 * import it (test/import-cycles.test.ts).
 */
export async function launchEmulator(
  settings: SettingsInput,
  deps: EmulatorDeps,
  preload: EmulatorPreload,
  startScenario: StartScenario,
): Promise<RunningEmulator> {
  const scenario = settings.scenario ? await startScenario(String(settings.scenario), preload) : undefined;
  let running: RunningEmulator;
  try {
    running = await startServer(
      settings,
      deps,
      scenario?.preload ?? preload,
      scenario ? { runScenario: () => scenario.run(running.url, running.emulator.settings.adminToken) } : {},
    );
  } catch (err) {
    await scenario?.close();
    throw err;
  }
  if (scenario === undefined) return running;
  let closing: Promise<void> | undefined;
  return {
    url: running.url,
    port: running.port,
    emulator: running.emulator,
    close() {
      closing ??= running.close().then(() => scenario.close());
      return closing;
    },
  };
}

/**
 * A failed listen as the user can act on it: which port, and how to choose another, named the way
 * the user gives settings (`--port`, `PORT`, a startEmulator option). Code `port_in_use` is stable.
 */
function listenError(err: NodeJS.ErrnoException, emulator: Emulator): EmulatorError {
  const { port, host } = emulator.settings;
  const another = `${emulator.names.howToSet('port', '<n>')}; port 0 picks a free one`;
  if (err.code === 'EADDRINUSE') {
    return new ConflictError(
      'port_in_use',
      `Port ${port} on ${host} is already in use (another emulator or program listens there). To use another port, ${another}.`,
      { port, host },
    );
  }
  if (err.code === 'EACCES') {
    return new EmulatorError(
      'port_not_permitted',
      `Port ${port} on ${host} may not be opened by this user (ports below 1024 need privileges). To use another port, ${another}.`,
      403,
      'user_input',
      { port, host },
    );
  }
  if (err.code === 'EADDRNOTAVAIL' || err.code === 'ENOTFOUND') {
    return new EmulatorError(
      'host_unavailable',
      `Cannot listen on ${host}: no network interface of this machine has that address (${err.code}). Choose another address: ${emulator.names.howToSet('host', '<addr>')}, e.g. 127.0.0.1 or 0.0.0.0.`,
      400,
      'user_input',
      { host },
    );
  }
  return new EmulatorError(
    'listen_failed',
    `Cannot listen on ${host}:${port}: ${err.message}.`,
    500,
    'internal',
    {
      port,
      host,
    },
  );
}
