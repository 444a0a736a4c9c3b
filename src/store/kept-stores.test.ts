import { afterEach, describe, expect, it } from 'vitest';
import { readState, stateDifferences } from '../../test/helpers/admin-state.js';
import { USERS } from '../../test/helpers/api-server.js';
import { CLOCK_START } from '../../test/helpers/clock.js';
import { WAIT_DEADLINE_MS } from '../../test/helpers/deadline.js';
import { receiver } from '../../test/helpers/receiver.js';
import { createCertificateAuthority } from '../certs/index.js';
import { repairCrash } from '../delivery/crash-repair.js';
import { type RunningEmulator, startServer } from '../server.js';
import { keptStores } from './snapshot.js';

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((r) => r.close()));
});

async function serve(preload: boolean): Promise<RunningEmulator> {
  const settings = {
    port: 0,
    clock: 'manual',
    clockStart: CLOCK_START,
    logLevel: 'silent',
    seed: 7,
  } as const;
  const r = await startServer(
    { ...settings, allowHttp: true, notificationRetention: 2 },
    {},
    preload ? { users: [{ ...USERS.alice, versions: [...USERS.alice.versions] }] } : {},
  );
  running.push(r);
  return r;
}

/** An emulator with something in every kept store (and in most of what each keeps). */
async function withEveryStore(): Promise<RunningEmulator> {
  const r = await serve(true);
  const { auth, delivery, reservations } = r.emulator;
  const api = `${r.url}/api/1.6/FlightService.json/GetAccessToken`;
  const call = await fetch(api, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: ' 00123 ' }),
  });
  expect(call.status).toBe(200);
  auth.tokens.revoke(auth.tokens.list()[0]!.token);
  auth.tokens.issue('alice', '1.7');
  auth.faults.add({ kind: 'status', status: 503, count: 2 });
  delivery.trustStore.add(createCertificateAuthority().certPem, 'admin', 'test');
  const ok = await receiver();
  delivery.credentials.add({ id: 'c1', apiKey: 'k1', url: ok.url });
  const event = async (): Promise<void> => {
    delivery.dispatch(reservations.apply({ type: 'Issue' }).emit);
    await delivery.outbox.waitSettled({}, WAIT_DEADLINE_MS);
  };
  for (let i = 0; i < 3; i++) await event(); // past the retention of 2: one dropped
  delivery.credentials.add({ id: 'c2', apiKey: 'k2', url: 'http://127.0.0.1:9/' });
  await event(); // c2's is refused: pending
  reservations.apply({ type: 'Void', bookingId: reservations.list()[0]!.bookingId });
  delivery.outages.add({ attempts: 1, credentialId: 'c2' });
  delivery.outbox.recordSkipped(new Date(CLOCK_START), 'a batch of the test');
  // What a crash would cut off, as the outbox keeps it while an attempt and a batch run.
  const { state } = delivery.outbox;
  const pending = delivery.outbox.list({ state: 'pending' })[0]!;
  state.apply({
    kind: 'attempt_started',
    notification: pending,
    attempt: { ...pending.attempts[0]!, number: 2 },
  });
  state.apply({ kind: 'batch_started', at: CLOCK_START });
  return r;
}

describe('each kept store lists its state as the changes that make it (decision 0274)', () => {
  it('makes, applied to the stores of a fresh emulator, the same state: every state GET answers the same, after crash repair too', async () => {
    const made = await withEveryStore();
    const fresh = await serve(false);
    const from = keptStores(made.emulator);
    const to = keptStores(fresh.emulator);
    for (const [i, store] of from.entries()) {
      const changes = [...store.asChanges()];
      expect(
        changes.length,
        `${store.constructor.name} lists no change: the test covers it not`,
      ).toBeGreaterThan(0);
      for (const change of changes) to[i]!.apply(change);
      // The fresh store lists the same again: what no GET shows (the sequences) included.
      expect([...to[i]!.asChanges()], store.constructor.name).toEqual(changes);
    }
    // What a restart does next with what a crash cut off (the attempts started, the batch running),
    // done to both: it ends them where the GETs see them.
    for (const r of [made, fresh]) repairCrash(r.emulator.delivery.outbox, r.emulator.changes, CLOCK_START);
    const differences = stateDifferences(await readState(made.url), await readState(fresh.url), [
      'the store:     ',
      'its changes:   ',
    ]);
    expect(differences).toEqual([]);
  });
});
