import type { Change } from '../change-stream.js';
import type { ChangeOwner } from '../model/change-sink.js';
import type { ClockMark } from '../model/changes.js';
import { type KeptServices, recordOf } from './change-records.js';
import type { ChangeRecord } from './kinds.js';

/** Every kind of change a store's `apply` makes: all but routing and the clock (no store keeps them). */
export type StoreChange = Exclude<Change, { kind: 'event_routed' | 'clock_started' | 'clock_advanced' }>;

/**
 * The stores a data dir keeps, in the order a snapshot lists them (decision 0274): the configuration
 * first (a notification's record names its credential's warnings), reservations before the
 * notifications that share their bodies. Replay hands every change to each of them.
 */
export function keptStores({ auth, delivery, reservations }: KeptServices): ChangeOwner<StoreChange>[] {
  return [
    auth.users,
    delivery.credentials,
    delivery.trustStore,
    auth.faults,
    delivery.outages,
    reservations.state,
    delivery.outbox.state,
    auth.journal,
    auth.tokens,
  ];
}

/**
 * A snapshot (decision 0274): where the clock stood, then each kept store's state as the changes
 * that make it, written through the journal's own `recordOf`. Each store takes its cut when this is
 * called; the records are built as they are iterated (decision 0146).
 */
export function stateRecords(s: KeptServices, clock: ClockMark): Iterable<ChangeRecord> {
  const cuts = keptStores(s).map((store) => store.asChanges());
  const mark = () => clock;
  return (function* () {
    yield recordOf({ kind: 'clock_started' }, s, mark)!;
    for (const changes of cuts)
      for (const change of changes) {
        const rec = recordOf(change, s, mark);
        if (rec) yield rec;
      }
  })();
}

/** The users, credentials and trusted certificates as the changes that add them. */
export function configurationChanges({ auth, delivery }: KeptServices): StoreChange[] {
  return [...auth.users.asChanges(), ...delivery.credentials.asChanges(), ...delivery.trustStore.asChanges()];
}
