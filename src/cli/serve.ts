import type { Command } from 'commander';
import {
  checkConfigKeys,
  effectiveConfig,
  envVariableOf,
  readStructuredFile,
  SERVE_OPTIONS,
  type SettingNames,
  type SettingOrigin,
  serveNames,
  settingsFromEnv,
  settingsFromFlags,
} from '../config/index.js';
import type { EmulatorPreload } from '../emulator.js';
import { InputError } from '../errors.js';
import { flushLog } from '../log.js';
import type { StartScenario } from '../server.js';

/** Where a scenario file keeps what `serve --scenario` takes from it (besides its `settings`). */
const SCENARIO_PATHS: Record<string, string> = {
  seed: 'seed',
  clock: 'clock.mode',
  clockStart: 'clock.start',
  hourMs: 'clock.hourMs',
};

/**
 * Resolves `serve` settings (defaults < scenario < config file < environment < flags), the users
 * and credentials a config file preloads, and how messages name each setting (where it was given).
 * `startEmulator` loads its `config` and `scenario` options through here too (shell
 * 'startEmulator': its options rank as flags, and messages name them as options).
 */
export async function serveSettings(
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
  shell: 'serve' | 'startEmulator' = 'serve',
): Promise<{
  settings: Record<string, unknown>;
  preload: EmulatorPreload;
  names: SettingNames;
}> {
  const fromEnv = settingsFromEnv(env);
  const fromFlags = settingsFromFlags(flags);
  const configFile = (fromFlags.config ?? fromEnv.config) as string | undefined;
  let fromFile: Record<string, unknown> = {};
  const fileOrigins = new Map<string, SettingOrigin>();
  const preload: EmulatorPreload = {};
  if (configFile) {
    const content = await readStructuredFile(configFile);
    if (content === null || typeof content !== 'object' || Array.isArray(content)) {
      throw new InputError(
        'file_malformed',
        `${configFile}: expected a mapping of settings at the top level.`,
      );
    }
    checkConfigKeys(configFile, content as Record<string, unknown>, '', ['settings', 'users', 'credentials']);
    const { settings = {}, users, credentials, ...rest } = content as Record<string, unknown>;
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings))
      throw new InputError('file_malformed', `${configFile}: "settings" must be a mapping of settings.`);
    const nested = settings as Record<string, unknown>;
    checkConfigKeys(configFile, nested, 'settings.', []);
    fromFile = { ...nested, ...pickSettings(rest) };
    for (const key of Object.keys(fromFile))
      fileOrigins.set(key, { kind: 'file', file: configFile, path: key in nested ? `settings.${key}` : key });
    for (const [key, list] of [
      ['users', users],
      ['credentials', credentials],
    ] as const) {
      if (list === undefined) continue;
      if (!Array.isArray(list))
        throw new InputError('file_malformed', `${configFile}: "${key}" must be a list.`);
      preload[key] = list;
    }
  }
  const scenarioFile = (fromFlags.scenario ?? fromEnv.scenario ?? fromFile.scenario) as string | undefined;
  let fromScenario: Record<string, unknown> = {};
  let scenario: { file: string; keys: ReadonlySet<string> } | undefined;
  const origins = new Map<string, SettingOrigin>();
  if (scenarioFile) {
    // A scenario's settings rank with the config file's, below environment and flags.
    const { scenarioServeSettings } = await import('../scenarios/serve.js');
    const fromFileOfScenario = await scenarioServeSettings(scenarioFile);
    fromScenario = fromFileOfScenario.settings;
    scenario = { file: scenarioFile, keys: new Set(fromFileOfScenario.settable) };
    for (const key of Object.keys(fromScenario))
      origins.set(key, { kind: 'file', file: scenarioFile, path: SCENARIO_PATHS[key] ?? `settings.${key}` });
  }
  for (const [key, origin] of fileOrigins) origins.set(key, origin);
  for (const spec of SERVE_OPTIONS) {
    const variable = envVariableOf(spec, env);
    if (variable) origins.set(spec.key, { kind: 'env', variable });
  }
  for (const key of Object.keys(fromFlags)) origins.set(key, { kind: shell === 'serve' ? 'flag' : 'option' });
  const names = serveNames(origins, scenario, shell);
  const {
    users: usersText,
    credentials: credentialsText,
    caPem,
    ...settings
  } = {
    ...fromScenario,
    ...fromFile,
    ...fromEnv,
    ...fromFlags,
  };
  // Lists given as settings (REPORTBO_USERS, --credentials …) replace a config file's lists, as any
  // environment variable or flag outranks the file (decision 0062).
  for (const [key, text] of [
    ['users', usersText],
    ['credentials', credentialsText],
  ] as const) {
    if (typeof text !== 'string') continue;
    const origin = origins.get(key);
    preload[key] = jsonList(text, names.name(key), key);
    preload.origins = { ...preload.origins, [key]: origin?.kind === 'env' ? origin.variable : key };
  }
  if (typeof caPem === 'string')
    preload.caPem = { pem: caPem.replaceAll('\\n', '\n'), where: names.name('caPem') };
  return { settings, preload, names };
}

/** A JSON list given as one setting's text, with the config file's messages for a bad one. */
function jsonList(text: string, where: string, key: string): unknown[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new InputError('invalid_setting', `${where}: not valid JSON: ${(err as Error).message}`, {
      path: key,
    });
  }
  if (!Array.isArray(value)) throw new InputError('invalid_setting', `${where}: "${key}" must be a list.`);
  return value;
}

function pickSettings(obj: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set(SERVE_OPTIONS.map((o) => o.key));
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.has(k)));
}

/**
 * Starts a scenario file's receivers, for `serve --scenario` and the `scenario` option of
 * `startEmulator`; the scenario code loads only when a scenario is given.
 */
export const startScenarioFile: StartScenario = async (file, preload) =>
  (await import('../scenarios/serve.js')).startServeScenario(file, preload);

/** Adds every serve option (from the shared table) to a command. */
export function addServeOptions(cmd: Command): Command {
  for (const o of SERVE_OPTIONS) {
    const envs = o.env.join(', ');
    cmd.option(o.flag, `${o.description} [env ${envs}]`);
  }
  return cmd;
}

/**
 * A file past `ulimit -f` would end the process by SIGXFSZ (exit 153) in the middle of a write;
 * ignored, the write fails with EFBIG, which the data dir and the log handle like a full disk. One
 * listener however often `serve` runs in the process (main() called again, a refusal each time).
 */
function ignoreSigxfsz(): void {}

/** `serve`: listen until SIGINT/SIGTERM; resolves with the exit code. */
export async function runServe(flags: Record<string, unknown>): Promise<number> {
  if (!process.listeners('SIGXFSZ').includes(ignoreSigxfsz)) process.on('SIGXFSZ', ignoreSigxfsz);
  const { launchEmulator } = await import('../server.js');
  const { settings: input, preload, names } = await serveSettings(flags, process.env);
  const running = await launchEmulator(input, { settingNames: names }, preload, startScenarioFile);
  const { settings, seed, clock, log } = running.emulator;
  // Handlers first: a supervisor may signal as soon as it sees the "listening" line.
  const stopped = new Promise<number>((resolve) => {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (stopping) {
        // A second signal, of either kind, ends the process at once (docs/delivery.md "Stopping with
        // attempts in flight"): no more waiting for the grace.
        log.warn({ signal }, 'second signal: stopping at once, attempts in flight are not waited for');
        flushLog(log);
        process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
      }
      stopping = true;
      log.info({ signal }, 'shutting down');
      void running.close().then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  if (input.urlFile) await writeUrlFile(String(input.urlFile), running.url, log);
  // A CA file builds the delivery engine at start; without one nothing is trusted yet.
  const trusted = settings.caFile ? running.emulator.delivery.trustStore.list().length : 0;
  // The same settings GET /__admin/config answers, so a CI log shows what the run used.
  // The readiness line (decision 0064): its start `reportbo-emulator listening on http://HOST:PORT`
  // names the address really listened on (0.0.0.0 in the image), and is promised to stay as it is.
  const listened = listenedUrl(settings.host, running.port);
  const reach = listened === running.url ? '' : `reach it at ${running.url}, `;
  log.info(
    { url: running.url, listen: listened, config: effectiveConfig(settings, seed, trusted) },
    `reportbo-emulator listening on ${listened} (${reach}dashboard: ${running.url}/__admin/ui, settings: ${running.url}/__admin/config, clock ${clock.mode}, seed ${seed})`,
  );
  return stopped;
}

/** `http://HOST:PORT` of the address the server listens on, an IPv6 address in brackets. */
function listenedUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * `--url-file`: the URL the process really listens on, however its port was given (flag, env,
 * config file, scenario, `--port 0`). The image's HEALTHCHECK reads it (decision 0025).
 * A file that cannot be written is a warning, not a failed start: the emulator itself works (a
 * read-only container file system), only the health check will say it found no URL.
 */
async function writeUrlFile(
  file: string,
  url: string,
  log: { warn(o: object, m: string): void },
): Promise<void> {
  const { writeFile } = await import('node:fs/promises');
  try {
    await writeFile(file, `${url}\n`);
  } catch (err) {
    log.warn(
      { urlFile: file },
      `--url-file ${file}: cannot write the listening URL (${(err as Error).message}); choose a writable path (env REPORTBO_URL_FILE)`,
    );
  }
}
