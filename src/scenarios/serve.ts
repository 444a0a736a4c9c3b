import { readFile, writeFile } from 'node:fs/promises';
import type { Emulator, EmulatorPreload } from '../emulator.js';
import { ConflictError } from '../errors.js';
import { loadScenarioFile } from './load/loader.js';
import { summarize } from './report/summary.js';
import { credentialInputs, preloadedEnvironment, userInputs } from './run/environment.js';
import { startScenarioReceivers } from './run/receivers.js';
import type { ScenarioResult } from './run/results.js';
import { runSteps } from './run/runner.js';
import type { Scenario } from './schema/index.js';

/** Settings a scenario file gives `serve` (below environment and flags in precedence). */
export async function scenarioServeSettings(file: string): Promise<Record<string, unknown>> {
  const s = await loadScenarioFile(file);
  return {
    ...s.settings,
    seed: s.seed,
    clock: s.clock.mode,
    ...(s.clock.mode === 'real' ? {} : { clockStart: s.clock.start }),
    ...(s.clock.hourMs === undefined ? {} : { hourMs: s.clock.hourMs }),
  };
}

/** A scenario loaded by `serve --scenario`: its receivers run for as long as the server does. */
export interface ServeScenario {
  readonly settings: Record<string, unknown>;
  readonly preload: EmulatorPreload;
  /** Connects the scenario to the started emulator so `POST /__admin/scenarios/run` can run it. */
  attach(emulator: Emulator, url: string): void;
  close(): Promise<void>;
}

/** What `POST /__admin/scenarios/run` answers. */
export interface ScenarioRunAnswer {
  status: ScenarioResult['status'];
  summary: ReturnType<typeof summarize>;
  result: ScenarioResult;
}

const hosts = new WeakMap<Emulator, () => Promise<ScenarioRunAnswer>>();

/** The run function of the scenario attached to an emulator, if any. */
export function scenarioRunnerOf(emulator: Emulator): (() => Promise<ScenarioRunAnswer>) | undefined {
  return hosts.get(emulator);
}

/**
 * Starts the scenario's receivers and adds its users and credentials to the preload. HTTPS
 * receivers' CA is trusted by writing it, with any `--ca-file` given, into the file the emulator reads.
 */
export async function startServeScenario(
  file: string,
  settings: Record<string, unknown>,
  preload: EmulatorPreload,
): Promise<ServeScenario> {
  const scenario: Scenario = await loadScenarioFile(file);
  const receivers = await startScenarioReceivers(scenario.receivers);
  let caFile = settings.caFile as string | undefined;
  if (receivers.caFile) {
    if (caFile)
      await writeFile(
        receivers.caFile,
        `${await readFile(caFile, 'utf8')}\n${await readFile(receivers.caFile, 'utf8')}`,
      );
    caFile = receivers.caFile;
  }
  let running = false;
  return {
    settings: { ...settings, ...(caFile ? { caFile } : {}) },
    preload: {
      users: [...(preload.users ?? []), ...userInputs(scenario)],
      credentials: [...(preload.credentials ?? []), ...credentialInputs(scenario, receivers.byName)],
    },
    attach(emulator, url) {
      hosts.set(emulator, async () => {
        if (running)
          throw new ConflictError(
            'scenario_running',
            'The scenario is already running; wait for its answer.',
          );
        running = true;
        try {
          const env = preloadedEnvironment(scenario, url, receivers.byName);
          // Each run starts from a clean slate: the counts a scenario expects are its own.
          await env.client.reset();
          for (const r of receivers.byName.values()) r.clear();
          const result = await runSteps(file, scenario, env);
          return { status: result.status, summary: summarize([result]), result };
        } finally {
          running = false;
        }
      });
    },
    close: () => receivers.close(),
  };
}
