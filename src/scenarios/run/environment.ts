import { readFile } from 'node:fs/promises';
import { AdminApiError } from '../../client/errors.js';
import { AdminClient } from '../../client/index.js';
import type { ApiVersion as ClientApiVersion, CredentialInput, User } from '../../client/types.js';
import { scenarioNames } from '../../config/names.js';
import type { Receiver } from '../../receivers/index.js';
import { RECEIVER_PREFIX, type Scenario } from '../schema/index.js';
import { type ScenarioReceivers, startScenarioReceivers } from './receivers.js';

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
    return environment(new AdminClient(running.url), running.url, scenario, receivers, [], async () => {
      await running.close();
    });
  } catch (err) {
    await receivers.close();
    throw err;
  }
}

/**
 * Runs the scenario against an emulator that is already running: resets it, then (re)creates the
 * scenario's users and credentials through the admin API, and removes them again at the end.
 */
export async function targetEnvironment(scenario: Scenario, target: string): Promise<ScenarioEnvironment> {
  const client = new AdminClient(target);
  const health = await client.health();
  const receivers = await startScenarioReceivers(scenario.receivers);
  const notes: string[] = [];
  try {
    if (health.clock && health.clock !== scenario.clock.mode)
      notes.push(`the target's clock is ${health.clock}, the scenario expects ${scenario.clock.mode}`);
    if (Object.keys(scenario.settings).length > 0)
      notes.push(`settings (${Object.keys(scenario.settings).join(', ')}) are not applied to a --target`);
    await client.reset();
    // HTTPS receivers: their CA is new in every run, so the target is told to trust it (it keeps it).
    if (receivers.caFile) await client.trust(await readFile(receivers.caFile, 'utf8'));
    const users = userInputs(scenario);
    const credentials = credentialInputs(scenario, receivers.byName);
    for (const u of users) {
      await ignoreNotFound(client.deleteUser(u.username));
      await client.addUser(u);
    }
    for (const c of credentials) {
      await ignoreNotFound(client.deleteCredential(c.id!));
      await client.addCredential(c);
    }
    return environment(client, client.baseUrl, scenario, receivers, notes, async () => {
      for (const c of credentials) await ignoreNotFound(client.deleteCredential(c.id!));
      for (const u of users) await ignoreNotFound(client.deleteUser(u.username));
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
): ScenarioEnvironment {
  return {
    client: new AdminClient(url),
    url,
    basePath16: scenario.settings.basePath16 ?? '/api/1.6',
    basePath17: scenario.settings.basePath17 ?? '/api/1.7',
    receivers,
    notes: [],
    close: async () => {},
  };
}

function environment(
  client: AdminClient,
  url: string,
  scenario: Scenario,
  receivers: ScenarioReceivers,
  notes: string[],
  stop: () => Promise<void>,
): ScenarioEnvironment {
  return {
    ...preloadedEnvironment(scenario, url, receivers.byName),
    client,
    notes,
    async close() {
      try {
        await stop();
      } finally {
        await receivers.close();
      }
    },
  };
}

async function ignoreNotFound(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof AdminApiError && err.status === 404)) throw err;
  }
}
