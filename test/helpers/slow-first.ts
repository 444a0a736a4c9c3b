/**
 * The order `npm test` starts its files in (vitest.config.ts `sequence.sequencer`). Four files run at
 * a time and the run lasts until its last file ends, so the longest files start first: one of them
 * started last runs alone at the end (a fresh clone has no vitest cache, and vitest then starts the
 * largest files first, which put a 49 s file last; decision 0267). SLOW_FIRST names the longest
 * files, longest first; the others follow in vitest's own order (its cache's durations when it has
 * them, else the largest first). A listed file that no longer exists fails the configuration.
 */
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that took 13 s or more in two runs of `npm test` (11-29), longest first (decision 0267). */
const SLOW_FIRST = [
  'test/dashboard-panels.test.ts',
  'test/dashboard-views.test.ts',
  'test/verify-bugs.test.ts',
  'test/restart-equivalence.test.ts',
  'test/verify-client.test.ts',
  'test/dashboard.test.ts',
  'test/verify-starved-receiver.test.ts',
  'test/verify-experiments.test.ts',
  'test/delivery-compressed.test.ts',
  'test/verify.test.ts',
  'test/persistence-compaction.test.ts',
  'test/certs.test.ts',
  'test/ci-recipes.test.ts',
  'test/run-reports.test.ts',
  'test/persistence-fixture.test.ts',
  'test/persistence-settings.test.ts',
  'test/dashboard-inspector.test.ts',
  'test/generate-properties.test.ts',
];

const missing = SLOW_FIRST.filter(
  (file) => !existsSync(fileURLToPath(new URL(`../../${file}`, import.meta.url))),
);
if (missing.length > 0)
  throw new Error(`test/helpers/slow-first.ts lists files that do not exist: ${missing.join(', ')}`);

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const rank = (spec: TestSpecification) => {
      const at = SLOW_FIRST.indexOf(relative(root, spec.moduleId));
      return at < 0 ? SLOW_FIRST.length : at;
    };
    // Array.prototype.sort is stable: the unlisted files keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}
