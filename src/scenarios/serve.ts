import type { EmulatorPreload } from '../emulator.js';
import { ConflictError } from '../errors.js';
import { loadScenarioFile } from './load/loader.js';
import { summarize } from './report/summary.js';
import { credentialInputs, preloadedEnvironment, userInputs } from './run/environment.js';
import { startScenarioReceivers } from './run/receivers.js';
import type { ScenarioResult } from './run/results.js';
import { runSteps } from './run/runner.js';
import { type Scenario, ScenarioSettings } from './schema/index.js';

/**
 * Settings a scenario file gives `serve` (below environment and flags in precedence), and the keys
 * its `settings` mapping may hold (messages suggest them there).
 */
export async function scenarioServeSettings(
  file: string,
): Promise<{ settings: Record<string, unknown>; settable: string[] }> {
  const s = await loadScenarioFile(file);
  return {
    settings: {
      ...s.settings,
      seed: s.seed,
      clock: s.clock.mode,
      ...(s.clock.mode === 'real' ? {} : { clockStart: s.clock.start }),
      ...(s.clock.hourMs === undefined ? {} : { hourMs: s.clock.hourMs }),
    },
    settable: Object.keys(ScenarioSettings.shape),
  };
}

/** A scenario loaded by `serve --scenario`: its receivers run for as long as the server does. */
export interface ServeScenario {
  readonly preload: EmulatorPreload;
  /**
   * Runs the scenario's steps against the emulator at `url` (reset first); the CLI hands this to
   * the admin API as `POST /__admin/scenarios/run`. Refuses a second run while one is going.
   */
  run(url: string, adminToken?: string): Promise<ScenarioRunAnswer>;
  close(): Promise<void>;
}

/** What `POST /__admin/scenarios/run` answers. */
export interface ScenarioRunAnswer {
  status: ScenarioResult['status'];
  summary: ReturnType<typeof summarize>;
  result: ScenarioResult;
}

/**
 * Starts the scenario's receivers and adds its users and credentials to the preload, and the CA of
 * its HTTPS receivers to the certificates trusted from the start (besides any `caFile` setting).
 */
export async function startServeScenario(file: string, preload: EmulatorPreload): Promise<ServeScenario> {
  const scenario: Scenario = await loadScenarioFile(file);
  const receivers = await startScenarioReceivers(scenario.receivers);
  let running = false;
  return {
    preload: {
      users: [...(preload.users ?? []), ...userInputs(scenario)],
      credentials: [...(preload.credentials ?? []), ...credentialInputs(scenario, receivers.byName)],
      trust: [...(preload.trust ?? []), ...(receivers.caPem ? [receivers.caPem] : [])],
    },
    async run(url, adminToken) {
      if (running)
        throw new ConflictError('scenario_running', 'The scenario is already running; wait for its answer.');
      running = true;
      try {
        const env = preloadedEnvironment(scenario, url, receivers.byName, adminToken);
        // Each run starts from a clean slate: the counts a scenario expects are its own.
        await env.client.reset();
        for (const r of receivers.byName.values()) r.clear();
        const result = await runSteps(file, scenario, env);
        return { status: result.status, summary: summarize([result]), result };
      } finally {
        running = false;
      }
    },
    close: () => receivers.close(),
  };
}
