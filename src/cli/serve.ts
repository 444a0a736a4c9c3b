import type { Command } from 'commander';
import { readStructuredFile, SERVE_OPTIONS, settingsFromEnv, settingsFromFlags } from '../config/index.js';
import type { EmulatorPreload } from '../emulator.js';
import { InputError } from '../errors.js';

/**
 * Resolves `serve` settings (defaults < config file < environment < flags) and the users and
 * credentials a config file preloads.
 */
export async function serveSettings(
  flags: Record<string, unknown>,
  env: NodeJS.ProcessEnv,
): Promise<{ settings: Record<string, unknown>; preload: EmulatorPreload }> {
  const fromEnv = settingsFromEnv(env);
  const fromFlags = settingsFromFlags(flags);
  const configFile = (fromFlags.config ?? fromEnv.config) as string | undefined;
  let fromFile: Record<string, unknown> = {};
  const preload: EmulatorPreload = {};
  if (configFile) {
    const content = await readStructuredFile(configFile);
    if (content === null || typeof content !== 'object' || Array.isArray(content)) {
      throw new InputError(
        'file_malformed',
        `${configFile}: expected a mapping of settings at the top level.`,
      );
    }
    const { settings = {}, users, credentials, ...rest } = content as Record<string, unknown>;
    fromFile = { ...(settings as Record<string, unknown>), ...pickSettings(rest) };
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
  if (scenarioFile) {
    // A scenario's settings rank with the config file's, below environment and flags.
    const { scenarioServeSettings } = await import('../scenarios/serve.js');
    fromScenario = await scenarioServeSettings(scenarioFile);
  }
  return { settings: { ...fromScenario, ...fromFile, ...fromEnv, ...fromFlags }, preload };
}

function pickSettings(obj: Record<string, unknown>): Record<string, unknown> {
  const keys = new Set(SERVE_OPTIONS.map((o) => o.key));
  return Object.fromEntries(Object.entries(obj).filter(([k]) => keys.has(k)));
}

/** Adds every serve option (from the shared table) to a command. */
export function addServeOptions(cmd: Command): Command {
  for (const o of SERVE_OPTIONS) {
    const envs = o.env.join(', ');
    cmd.option(o.flag, `${o.description} [env ${envs}]`);
  }
  return cmd;
}

/** `serve`: listen until SIGINT/SIGTERM; resolves with the exit code. */
export async function runServe(flags: Record<string, unknown>): Promise<number> {
  const { startServer } = await import('../server.js');
  const { settings: input, preload } = await serveSettings(flags, process.env);
  // --scenario: its receivers start first, so its credentials can point at them.
  const scenario = input.scenario
    ? await (await import('../scenarios/serve.js')).startServeScenario(String(input.scenario), input, preload)
    : undefined;
  const running = await startServer(scenario?.settings ?? input, {}, scenario?.preload ?? preload);
  scenario?.attach(running.emulator, running.url);
  const { settings, seed, clock, log } = running.emulator;
  // Handlers first: a supervisor may signal as soon as it sees the "listening" line.
  const stopped = new Promise<number>((resolve) => {
    const shutdown = (signal: string) => {
      log.info({ signal }, 'shutting down');
      void running
        .close()
        .then(() => scenario?.close())
        .then(() => resolve(0));
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });
  log.info(
    { url: running.url, clock: clock.mode, seed, api16: settings.basePath16, api17: settings.basePath17 },
    `reportbo-emulator listening on ${running.url} (dashboard: ${running.url}/__admin/ui, clock ${clock.mode}, seed ${seed})`,
  );
  return stopped;
}
