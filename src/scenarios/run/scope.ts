/**
 * What of an emulator a scenario run may look at, and how the scenario's credential ids map to the
 * emulator's. An in-process run owns its emulator: everything, ids as written. A `--target` run
 * shares a running emulator, so it names its credentials apart and looks only at what it made
 * (decision 0026).
 */
export interface RunScope {
  /** The emulator's id of a scenario credential. */
  credentialId(scenarioId: string): string;
  /** The scenario's id of an emulator credential (unchanged when it is not the run's). */
  scenarioCredentialId(emulatorId: string): string;
  /** The notifications of this run, from a list of the emulator's. */
  ownNotifications<T extends { id: string; credentialId: string }>(list: readonly T[]): T[];
  /** The GetAccessToken journal entries of this run, from a list of the emulator's. */
  ownRequests<T extends { id: string }>(list: readonly T[]): T[];
  /** The emulator ids of the run's own credentials, or undefined when the run sees every credential. */
  readonly ownCredentialIds: readonly string[] | undefined;
}

/** An emulator the run owns: it sees everything, ids as the scenario wrote them. */
export const WHOLE_EMULATOR: RunScope = {
  credentialId: (id) => id,
  scenarioCredentialId: (id) => id,
  ownNotifications: (list) => [...list],
  ownRequests: (list) => [...list],
  ownCredentialIds: undefined,
};

/** The sequence number of an emulator id such as `n-000042` or `r-000007` (0 when it has none). */
export function sequenceOf(id: string): number {
  const m = /(\d+)$/.exec(id);
  return m ? Number(m[1]) : 0;
}

/**
 * The scope of a run on a shared emulator: its credentials carry `suffix`; it sees notifications
 * to its own credentials (or, when it declares none, those created after `notificationsAfter`) and
 * journal entries recorded after `requestsAfter`.
 */
export function sharedScope(options: {
  credentialIds: readonly string[];
  suffix: string;
  notificationsAfter: number;
  requestsAfter: number;
}): RunScope {
  const toEmulator = new Map<string, string>();
  const toScenario = new Map<string, string>();
  for (const [i, id] of options.credentialIds.entries()) {
    // Emulator credential ids are at most 64 characters (delivery/credential-schema.ts); two long
    // ids cut to the same prefix keep apart by their position.
    let namespaced = `${id.slice(0, 64 - options.suffix.length)}${options.suffix}`;
    if (toScenario.has(namespaced))
      namespaced = `${id.slice(0, 60 - options.suffix.length)}-${i}${options.suffix}`;
    toEmulator.set(id, namespaced);
    toScenario.set(namespaced, id);
  }
  return {
    credentialId: (id) => toEmulator.get(id) ?? id,
    scenarioCredentialId: (id) => toScenario.get(id) ?? id,
    ownNotifications: (list) =>
      toScenario.size > 0
        ? list.filter((n) => toScenario.has(n.credentialId))
        : list.filter((n) => sequenceOf(n.id) > options.notificationsAfter),
    ownRequests: (list) => list.filter((r) => sequenceOf(r.id) > options.requestsAfter),
    ownCredentialIds: toScenario.size > 0 ? [...toScenario.keys()] : undefined,
  };
}
