import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { dataDirRoot } from './helpers/data-dir-emulators.js';
import { TEST_DEADLINE_MS } from './helpers/deadline.js';
import { NOT_DRAWN, REQUESTS, restartsTheSame, sequenceArb } from './helpers/restart-property.js';

// Issue 38 §5: the restart-equivalence property (test/helpers/restart-property.ts). A failure names
// the sequence (fast-check's counterexample) and the GET that differs. RESTART_SEQUENCES sets how
// many (default 200).

describe('restart equivalence', () => {
  it('draws every write route of the route table (or names why not)', () => {
    const writes = Object.entries(ADMIN_ROUTES)
      .filter(([, r]) => r.method !== 'get')
      .map(([op]) => op);
    expect(writes.filter((op) => !(op in REQUESTS) && !(op in NOT_DRAWN))).toEqual([]);
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
