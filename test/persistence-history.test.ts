import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminCall } from './helpers/admin-call.js';
import { dataDirSettings, restart, serve } from './helpers/data-dir.js';

// A reservation redelivered many times (the soak redelivers 50 reservations 20 times a second): its
// journal record must carry what the save appended, not the whole history again, or the journal
// grows with the square of the redeliveries; the history still comes back whole after a restart.

const settings = () => dataDirSettings('reportbo-dd-history-');

/** The bytes of the data dir's journals. */
function journalBytes(dataDir: string): number {
  return readdirSync(dataDir)
    .filter((f) => /^journal-\d+\.bin$/.test(f))
    .reduce((sum, f) => sum + statSync(join(dataDir, f)).size, 0);
}

describe('a reservation redelivered many times under --data-dir', () => {
  it('journals each redelivery in about the same bytes, and restarts with its whole history', async () => {
    const input = settings();
    let r = await serve(input);
    const issued = await adminCall(r, 'POST', '/events', { type: 'Issue' });
    const bookingId = (issued.body as { reservations: Array<{ bookingId: number }> }).reservations[0]!
      .bookingId;
    const redeliver = async () => {
      const before = journalBytes(input.dataDir!);
      const res = await adminCall(r, 'POST', `/reservations/${bookingId}/redeliver`, { status: 'Issued' });
      expect(res.status).toBe(202);
      return journalBytes(input.dataDir!) - before;
    };
    const first = await redeliver();
    for (let i = 0; i < 60; i++) await redeliver();
    const later = await redeliver();
    expect(later).toBeLessThan(first * 1.5);

    const kept = await adminCall(r, 'GET', `/reservations/${bookingId}`);
    const history = (kept.body as { history: unknown[] }).history;
    expect(history).toHaveLength(63);
    r = await restart(r, input);
    const back = await adminCall(r, 'GET', `/reservations/${bookingId}`);
    expect(back.body).toEqual(kept.body);
  });
});
