import { AdminClient } from '../../client/index.js';
import type { ApiVersion as ClientApiVersion, CredentialInput, User } from '../../client/types.js';
import { scenarioNames } from '../../config/names.js';
import { DEFAULT_BASE_PATHS } from '../../config/schema.js';
import type { Receiver } from '../../receivers/index.js';
import { RECEIVER_PREFIX, type Scenario } from '../schema/index.js';
import { type ScenarioReceivers, startScenarioReceivers } from './receivers.js';
import { type RunScope, WHOLE_EMULATOR } from './scope.js';

/** Where a scenario runs: the emulator it talks to (over the admin API only) and its receivers. */
export interface ScenarioEnvironment {
  readonly client: AdminClient;
  /** Base URL of the emulator (provider API and admin API). */
  readonly url: string;
  readonly basePath16: string;
  readonly basePath17: string;
  readonly receivers: ReadonlyMap<string, Receiver>;
  /** Things the user should know (e.g. settings a --target cannot take). */
  readonly notes: string[];
  /** What of the emulator the run looks at, and the emulator's ids of its credentials. */
  readonly scope: RunScope;
  close(): Promise<void>;
}

/** Path under a built-in receiver's URL where notifications are posted. */
export const RECEIVER_PATH = '/reportbo/notifications';

/** Resolves `receiver:<name>` to the receiver's URL. */
export function credentialInputs(
  scenario: Scenario,
  receivers: ReadonlyMap<string, Receiver>,
): CredentialInput[] {
  return scenario.credentials.map((c) => {
    const name = c.url.startsWith(RECEIVER_PREFIX) ? c.url.slice(RECEIVER_PREFIX.length) : undefined;
    const url = name === undefined ? c.url : `${receivers.get(name)!.url}${RECEIVER_PATH}`;
    return { id: c.id, apiKey: c.apiKey, url, ...(c.filters ? { filters: c.filters } : {}) };
  });
}

/** Users with versions spelled as strings (YAML may have read 1.7 as a number). */
export function userInputs(scenario: Scenario): User[] {
  return scenario.users.map((u) => ({
    ...u,
    versions: u.versions.map((v) => String(v) as ClientApiVersion),
  }));
}

/** The settings an in-process emulator for this scenario starts with. */
export function emulatorSettings(scenario: Scenario): Record<string, unknown> {
  return {
    ...scenario.settings,
    seed: scenario.seed,
    clock: scenario.clock.mode,
    ...(scenario.clock.mode === 'real' ? {} : { clockStart: scenario.clock.start }),
    ...(scenario.clock.hourMs === undefined ? {} : { hourMs: scenario.clock.hourMs }),
  };
}

/**
 * Runs the scenario in a fresh emulator in this process, listening on a free loopback port. Messages
 * name its settings as the scenario file holds them (`settings.caFile in <file>`); the built-in
 * HTTPS receivers' CA is trusted from the start, besides the scenario's own `settings.caFile`.
 */
export async function inProcessEnvironment(
  scenario: Scenario,
  file = '<scenario>',
): Promise<ScenarioEnvironment> {
  const receivers = await startScenarioReceivers(scenario.receivers);
  try {
    const { startServer } = await import('../../server.js');
    const running = await startServer(
      { ...emulatorSettings(scenario), port: 0, host: '127.0.0.1', logLevel: 'silent' },
      { settingNames: scenarioNames(file) },
      {
        users: userInputs(scenario),
        credentials: credentialInputs(scenario, receivers.byName),
        ...(receivers.caPem ? { trust: [receivers.caPem] } : {}),
      },
    );
    const { adminToken } = running.emulator.settings;
    const client = new AdminClient(running.url, adminToken ? { adminToken } : {});
    return environment(client, running.url, scenario, receivers, [], async () => {
      await running.close();
    });
  } catch (err) {
    await receivers.close();
    throw err;
  }
}

/** Runs against an emulator already set up with the scenario (`serve --scenario`). */
export function preloadedEnvironment(
  scenario: Scenario,
  url: string,
  receivers: ReadonlyMap<string, Receiver>,
  adminToken?: string,
): ScenarioEnvironment {
  return {
    client: new AdminClient(url, adminToken ? { adminToken } : {}),
    url,
    basePath16: scenario.settings.basePath16 ?? DEFAULT_BASE_PATHS['1.6'],
    basePath17: scenario.settings.basePath17 ?? DEFAULT_BASE_PATHS['1.7'],
    receivers,
    notes: [],
    scope: WHOLE_EMULATOR,
    close: async () => {},
  };
}

/** An environment over `client` that stops with `stop`, then closes the scenario's receivers. */
export function environment(
  client: AdminClient,
  url: string,
  scenario: Scenario,
  receivers: ScenarioReceivers,
  notes: string[],
  stop: () => Promise<void>,
  scope: RunScope = WHOLE_EMULATOR,
): ScenarioEnvironment {
  return {
    ...preloadedEnvironment(scenario, url, receivers.byName),
    client,
    notes,
    scope,
    async close() {
      try {
        await stop();
      } finally {
        await receivers.close();
      }
    },
  };
}
