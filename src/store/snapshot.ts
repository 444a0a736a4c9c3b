import type { Change } from '../change-stream.js';
import type { ClockMark } from '../model/changes.js';
import { type KeptServices, recordOf } from './change-records.js';
import type { ChangeRecord } from './kinds.js';

/**
 * A snapshot: each store's state at this instant as the list of changes that make it (decision
 * 0230), written through the journal's own `recordOf`, in an order replay can follow (reservations
 * before the notifications that share their bodies), plus the attempts and the batch running now, so
 * a crash after the snapshot still finds them cut off.
 * The cut is taken when this is called and is cheap (references to what does not change once
 * stored, a shallow copy of each notification); the records are built as they are iterated
 * (decision 0146).
 */
export function stateRecords(s: KeptServices, clock: ClockMark): Iterable<ChangeRecord> {
  const small: Change[] = [
    { kind: 'clock_started' },
    ...configurationChanges(s),
    { kind: 'fault_used', faults: s.auth.faults.list() },
    { kind: 'outage_used', outages: s.delivery.outages.list() },
  ];
  const { records, sequence } = s.reservations.storedAll();
  const reservations = [...records];
  const { dropped } = s.delivery.outbox.retention();
  const { outbox } = s.delivery;
  const notifications = outbox.list().map((n) => ({ ...n }));
  const started = [...outbox.state.started].flatMap(([id, attempt]) => {
    const notification = outbox.get(id);
    return notification ? [{ kind: 'attempt_started' as const, notification, attempt }] : [];
  });
  const { batchRunning } = outbox.state;
  const batches = [...outbox.batches()];
  const journal = s.auth.journal.list();
  const tokens = s.auth.tokens.kept();
  const changes = function* (): Iterable<Change> {
    yield* small;
    // `historyFrom` 0: a snapshot's reservation holds its whole history.
    for (const record of reservations) yield { kind: 'reservation_saved', record, sequence, historyFrom: 0 };
    if (dropped > 0) yield { kind: 'notifications_dropped', ids: [], dropped };
    // A notification's record carries its attempts so far.
    for (const notification of notifications) yield { kind: 'notification_created', notification };
    yield* started;
    for (const result of batches) yield { kind: 'batch_done', result };
    if (batchRunning) yield { kind: 'batch_started', at: batchRunning };
    for (const entry of journal) yield { kind: 'call_journaled', entry };
    for (const { revoked, ...issued } of tokens) {
      yield { kind: 'token_issued', ...issued };
      if (revoked) yield { kind: 'token_revoked', token: issued.token };
    }
  };
  const ctx = { services: s, mark: () => clock };
  return (function* () {
    for (const change of changes()) {
      const rec = recordOf(change, ctx);
      if (rec) yield rec;
    }
  })();
}

/** The users, credentials and trusted certificates as the changes that add them. */
export function configurationChanges(
  s: KeptServices,
): Extract<Change, { kind: 'user_added' | 'credential_added' | 'trust_added' }>[] {
  return [
    ...s.auth.users.list().map((user) => ({ kind: 'user_added' as const, user })),
    ...s.delivery.credentials.list().map((credential) => ({ kind: 'credential_added' as const, credential })),
    ...s.delivery.trustStore
      .entries()
      .map(({ pem, info }) => ({ kind: 'trust_added' as const, pem, certificate: info })),
  ];
}
