import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { AdminApiError } from '../../client/errors.js';
import { AdminClient } from '../../client/index.js';
import type { User } from '../../client/types.js';
import { InputError } from '../../errors.js';
import type { Scenario } from '../schema/index.js';
import { credentialInputs, environment, type ScenarioEnvironment, userInputs } from './environment.js';
import { startScenarioReceivers } from './receivers.js';
import { sequenceOf, sharedScope } from './scope.js';

/**
 * Runs the scenario against an emulator that is already running, and leaves it as it found it:
 * nothing is reset; the scenario's credentials are added under ids of their own (`<id>.run-<hex>`)
 * and expectations look only at the notifications sent to them and at journal entries recorded
 * after the run began; users and trusted CAs the run adds are removed at the end; a user of the
 * same name that the target already holds is used only when it is the scenario's. What cannot be
 * applied to a running emulator (seed, clock, settings) is said in the notes, by name, before the run.
 */
export async function targetEnvironment(
  scenario: Scenario,
  target: string,
  adminToken?: string,
): Promise<ScenarioEnvironment> {
  const client = new AdminClient(target, adminToken ? { adminToken } : {});
  const health = await client.health();
  const notes = await unappliedNotes(client, scenario, health.seed);
  const users = await usersToAdd(client, scenario, notes);
  const [{ notifications }, requests] = await Promise.all([
    client.listNotifications(),
    client.listRequests(),
  ]);
  const suffix = `.run-${randomBytes(3).toString('hex')}`;
  const scope = sharedScope({
    credentialIds: scenario.credentials.map((c) => c.id),
    suffix,
    notificationsAfter: Math.max(0, ...notifications.map((n) => sequenceOf(n.id))),
    requestsAfter: Math.max(0, ...requests.map((r) => sequenceOf(r.id))),
  });
  const receivers = await startScenarioReceivers(scenario.receivers);
  const undo: Array<() => Promise<void>> = [];
  const undoAll = async () => {
    // Newest first; every step is tried even when one fails, the first failure is reported.
    let failure: unknown;
    for (const step of undo.reverse()) await step().catch((err: unknown) => (failure ??= err));
    if (failure !== undefined) throw failure;
  };
  try {
    // The built-in HTTPS receivers' CA (new in every process) and settings.caFile: trusted for the
    // run only; a certificate the target trusted already is left as it was.
    const pems = [
      ...(receivers.caFile ? [await readFile(receivers.caFile, 'utf8')] : []),
      ...(scenario.settings.caFile ? [await readCa(scenario.settings.caFile)] : []),
    ];
    for (const pem of pems)
      for (const added of await client.trust(pem))
        undo.push(() => ignoreNotFound(client.untrust(added.fingerprint256)));
    for (const u of users) {
      await client.addUser(u);
      undo.push(() => ignoreNotFound(client.deleteUser(u.username)));
    }
    for (const c of credentialInputs(scenario, receivers.byName)) {
      const id = scope.credentialId(c.id!);
      await client.addCredential({ ...c, id });
      undo.push(() => ignoreNotFound(client.deleteCredential(id)));
    }
    if (scenario.credentials.length > 0)
      notes.push(
        `credentials are added to the target as ${scenario.credentials.map((c) => scope.credentialId(c.id)).join(', ')} ` +
          'and removed after the run; expectations look only at their notifications',
      );
  } catch (err) {
    await undoAll().catch(() => {});
    await receivers.close();
    throw err;
  }
  return environment(client, client.baseUrl, scenario, receivers, notes, undoAll, scope);
}

/** What a running emulator keeps of its own, named as the scenario writes it (the seed, the clock, settings). */
async function unappliedNotes(
  client: AdminClient,
  scenario: Scenario,
  targetSeed: number | undefined,
): Promise<string[]> {
  const notes: string[] = [];
  const clock = await client.getClock();
  if (targetSeed !== undefined && targetSeed !== scenario.seed)
    notes.push(
      `not applied to the target: seed ${scenario.seed} (the target generates with seed ${targetSeed}, so generated values differ from an in-process run)`,
    );
  const want = scenario.clock;
  if (clock.mode !== want.mode)
    notes.push(`not applied to the target: clock.mode ${want.mode} (the target's clock is ${clock.mode})`);
  else if (want.mode === 'manual' && Date.parse(clock.now) !== Date.parse(want.start))
    notes.push(
      `not applied to the target: clock.start ${want.start} (the target's clock is at ${clock.now})`,
    );
  if (want.hourMs !== undefined && clock.hourMs !== want.hourMs)
    notes.push(
      `not applied to the target: clock.hourMs ${want.hourMs} (the target's is ${clock.hourMs ?? 'not set: its clock is not compressed'})`,
    );
  const settings = Object.keys(scenario.settings).filter((k) => k !== 'caFile');
  if (settings.length > 0)
    notes.push(
      `not applied to the target: ${settings.map((k) => `settings.${k}`).join(', ')} (a running emulator keeps its own settings)`,
    );
  const faults = await client.listFaults();
  if (faults.length > 0)
    notes.push(
      `the target has ${faults.length} GetAccessToken fault${faults.length === 1 ? '' : 's'} set (GET /__admin/faults): login steps meet ${faults.length === 1 ? 'it' : 'them'}`,
    );
  return notes;
}

/**
 * The scenario's users the target does not hold yet. A user it holds already is used as it is when
 * it is the scenario's; a different one stops the run: replacing it could not be undone (the admin
 * API need not answer passwords), and results would depend on it.
 */
async function usersToAdd(client: AdminClient, scenario: Scenario, notes: string[]): Promise<User[]> {
  const existing = new Map((await client.listUsers()).map((u) => [u.username, u]));
  const toAdd: User[] = [];
  for (const u of userInputs(scenario)) {
    const held = existing.get(u.username) as (Partial<User> & { username: string }) | undefined;
    if (!held) {
      toAdd.push(u);
      continue;
    }
    const same =
      held.idWeb === u.idWeb &&
      held.webDescription === u.webDescription &&
      [...(held.versions ?? [])].sort().join() === [...u.versions].sort().join() &&
      (held.password === undefined || held.password === u.password);
    if (!same)
      throw new InputError(
        'target_user_differs',
        `users: the target already has a user "${u.username}" that differs from the scenario's ` +
          `(idWeb ${held.idWeb}, webDescription "${held.webDescription}", versions ${(held.versions ?? []).join(', ')}${held.password === undefined ? '' : ', or its password'}). ` +
          "A --target run never changes a user it did not create: rename the scenario's user, or delete the target's " +
          `(DELETE /__admin/users/${encodeURIComponent(u.username)}).`,
        { path: 'users' },
      );
    notes.push(
      `user ${u.username}: the target already has it as the scenario defines it${held.password === undefined ? ' (its password could not be compared)' : ''}; used as it is and kept`,
    );
  }
  return toAdd;
}

async function readCa(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(
      'ca_file_unreadable',
      `settings.caFile: cannot read ${file} (${(err as Error).message}).`,
    );
  }
}

async function ignoreNotFound(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!(err instanceof AdminApiError && err.status === 404)) throw err;
  }
}
