import { afterEach, describe, expect, it } from 'vitest';
import { WAIT_DEADLINE_MS } from '../../test/helpers/deadline.js';
import { createEmulator, type Emulator } from '../emulator.js';
import type { OutgoingRecord } from './kinds.js';
import { stateRecords } from './snapshot.js';

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.stop();
  emulator = undefined;
});

const CLOCK = { mode: 'manual', emuMs: 0, wallMs: 0, hourMs: 3_600_000 } as const;

/** The cut's records by kind, with the fields the test compares. */
function byKind(records: Iterable<OutgoingRecord>) {
  const out = new Map<string, OutgoingRecord[]>();
  for (const r of records) out.set(r.k, [...(out.get(r.k) ?? []), r]);
  return out;
}

describe('the state cut a snapshot is written from', () => {
  it('holds the state at the call, though its records are built later (decision 0146)', async () => {
    emulator = createEmulator({ clock: 'manual', logLevel: 'silent', allowHttp: true, seed: 7 });
    await emulator.ready;
    emulator.auth.users.add({ username: 'alice', password: 'pw-alice-1', idWeb: 1, webDescription: 'A' });
    emulator.delivery.credentials.add({ id: 'c1', apiKey: 'k', url: 'http://127.0.0.1:9/' });
    const first = emulator.auth.tokens.issue('alice', '1.7');
    const issued = emulator.reservations.apply({ type: 'Issue' });
    emulator.delivery.dispatch(issued.emit);
    const bookingId = issued.reservations[0]!.bookingId;
    await emulator.delivery.outbox.waitSettled({}, WAIT_DEADLINE_MS); // its first attempt was refused: pending
    const notification = emulator.delivery.outbox.list()[0]!;
    const stateAtCut = notification.state;

    const cut = stateRecords(emulator, CLOCK);

    // Everything below happens after the cut, while a background compaction would still be writing.
    emulator.auth.tokens.revoke(first.token);
    emulator.auth.tokens.issue('alice', '1.7');
    emulator.auth.users.add({ username: 'bob', password: 'pw-bob-1', idWeb: 2, webDescription: 'B' });
    emulator.reservations.redeliver(bookingId, 'Voided');
    emulator.delivery.outbox.cancelCredential('c1', 'credential_deleted');
    expect(notification.state).toBe('cancelled');

    const kept = byKind(cut);
    expect(kept.get('token_issued')!.map((r) => r.d)).toEqual([
      expect.objectContaining({ token: first.token }),
    ]);
    expect(kept.get('token_revoked')).toBeUndefined();
    expect(kept.get('user_added')!.map((r) => (r.d as { user: { username: string } }).user.username)).toEqual(
      ['alice'],
    );
    const reservation = kept
      .get('reservation_saved')!
      .map((r) => r.d as { record: { status: string; history: unknown[] } });
    expect(reservation.map((r) => [r.record.status, r.record.history.length])).toEqual([['Issued', 1]]);
    expect(stateAtCut).not.toBe('cancelled');
    const notifications = kept
      .get('notification_created')!
      .map((r) => r.d as { notification: { state: string } });
    expect(notifications.map((r) => r.notification.state)).toEqual([stateAtCut]);
  });
});
