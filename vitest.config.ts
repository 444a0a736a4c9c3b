import { configDefaults, defineConfig } from 'vitest/config';
import { TEST_DEADLINE_MS } from './test/helpers/deadline.js';
import { SlowFirst } from './test/helpers/slow-first.js';

/**
 * `npm test`: the complete functional suite, every feature end to end. Two groups run apart, and
 * `.ci/run` runs all three:
 * - `*.scale.test.ts` (`npm run test:scale`, vitest.scale.config.ts): thousands of notifications,
 *   minute-long runs, kill -9 loops, long runs that only add size;
 * - `*.package.test.ts` (`npm run test:package`, vitest.package.config.ts): what ships, built and
 *   installed as a user gets it (npm pack, the tarball and a git URL installed into throwaway
 *   projects under Jest 29/30, the Docker image and the Testcontainers module on a real engine, and
 *   the receiver types generated from the contract documents with tools installed from npm).
 *
 * Three projects: `unit` (the unit tests beside the code in src/) shares one module graph per worker
 * (`isolate: false`): they register no hooks from shared modules and leave no state behind, and a
 * fresh graph per file cost 70 s of CPU for 45 files against 29 s shared. `e2e-shared` (test/ but
 * ISOLATED below) shares one too; `e2e` (ISOLATED: the dashboard's browser tests) keeps one per file.
 */
/**
 * End-to-end files that keep one module graph each (`isolate: true`): the dashboard's browser
 * tests, which hold one chromium per file. Every other file of test/ shares one module graph per
 * worker (decision 0154): it leaves no process-wide state behind (listeners, environment, timers,
 * mocks; `runMain` restores stdout and the environment), keeps nothing in shared modules, and closes
 * what it starts (the helpers' clean-up runs in every file through test/helpers/file-hooks.ts).
 * Sharing saved about half the CPU of the files measured (decision 0154). A new file shares unless
 * it is listed here.
 */
const ISOLATED = [
  'test/dashboard-inspector.test.ts',
  'test/dashboard-panels.test.ts',
  'test/dashboard-stale.test.ts',
  'test/dashboard-views.test.ts',
  'test/dashboard.test.ts',
];
const APART = [...configDefaults.exclude, '**/*.scale.test.ts', '**/*.package.test.ts'];

export default defineConfig({
  test: {
    // Waits end on events; the deadline only bounds a test that would never end, far above the
    // slowest seen (over 60 s at load ~21 on two cores). test/helpers/deadline.ts.
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: TEST_DEADLINE_MS,
    pool: 'forks',
    // Registers the helpers' clean-up in each test file (test/helpers/file-hooks.ts).
    setupFiles: ['test/setup/file-hooks.ts'],
    // Most files wait on sockets, timers and child processes rather than compute: four at a time keep
    // two cores busy (two left them ~40% idle). VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 4,
    // The longest files start first, so none runs alone at the end (test/helpers/slow-first.ts).
    sequence: { sequencer: SlowFirst },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e-shared',
          include: ['test/**/*.test.ts'],
          exclude: [...APART, ...ISOLATED],
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ISOLATED },
      },
    ],
  },
});
