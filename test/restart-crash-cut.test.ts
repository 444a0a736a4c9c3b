import { describe, it } from 'vitest';
import { crashCutRestart } from './helpers/crash-cut.js';

// What a crash cuts off, in process (test/helpers/crash-cut.ts): the kill -9 tests of the CLI
// (test/crash-*.test.ts) say the same of the real process; this one lets the mutation drill
// (scripts/mutation-drill.mjs) meet a mutant of those changes without a build.

describe('a restart after a crash mid-batch', () => {
  it('ends the attempt in flight as interrupted_by_crash and the batch as interrupted', () =>
    crashCutRestart());
});
