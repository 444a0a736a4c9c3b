import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { NOT_STATE } from './helpers/admin-state.js';
import { dataDirRoot } from './helpers/data-dir-emulators.js';
import { TEST_DEADLINE_MS } from './helpers/deadline.js';
import { KEPT_BY_RESET, WRITES_KEPT_BY_RESET } from './helpers/reset-oracle.js';
import { NOT_DRAWN, REQUESTS, restartsTheSame, sequenceArb } from './helpers/restart-property.js';

// Issue 38 §5: the restart-equivalence property (test/helpers/restart-property.ts). A failure names
// the sequence (fast-check's counterexample) and the GET that differs; after a reset, the reset
// oracle's differences from a fresh start (test/helpers/reset-oracle.ts). RESTART_SEQUENCES sets
// how many (default 200).

describe('restart equivalence', () => {
  it('draws every write route of the route table (or names why not)', () => {
    const writes = Object.entries(ADMIN_ROUTES)
      .filter(([, r]) => r.method !== 'get')
      .map(([op]) => op);
    expect(writes.filter((op) => !(op in REQUESTS) && !(op in NOT_DRAWN))).toEqual([]);
  });

  it('replays, for the reset oracle, the writes of what reset keeps: each a drawn write of a state list', () => {
    for (const op of Object.keys(KEPT_BY_RESET)) expect(op in NOT_STATE, op).toBe(false);
    expect(WRITES_KEPT_BY_RESET.size).toBeGreaterThan(0);
    for (const op of WRITES_KEPT_BY_RESET) expect(op in REQUESTS, op).toBe(true);
  });

  it(
    'every state GET answers the same after a restart, after any sequence of writes, events and clock moves',
    async () => {
      const root = dataDirRoot('reportbo-restart-');
      const sequences = Number(process.env.RESTART_SEQUENCES ?? 200);
      await fc.assert(
        fc.asyncProperty(sequenceArb, (steps) => restartsTheSame(root, steps)),
        { numRuns: sequences, endOnFailure: true },
      );
      // 34-47 s on a quiet machine, over 120 s at load 10 on two cores: the deadline only bounds a run
      // that would never end (test/helpers/deadline.ts).
    },
    2 * TEST_DEADLINE_MS,
  );
});
