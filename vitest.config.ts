import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test`: the complete functional suite, every feature end to end. Two groups run apart, and
 * `.ci/run` runs all three:
 * - `*.scale.test.ts` (`npm run test:scale`, vitest.scale.config.ts): thousands of notifications,
 *   minute-long runs, kill -9 loops;
 * - `*.package.test.ts` (`npm run test:package`, vitest.package.config.ts): what ships, built and
 *   installed as a user gets it (npm pack, the tarball and a git URL installed into throwaway
 *   projects under Jest 29/30, the Docker image and the Testcontainers module on a real engine, and
 *   the receiver types generated from the contract documents with tools installed from npm).
 *
 * Two projects: `unit` (the unit tests beside the code in src/) shares one module graph per worker
 * (`isolate: false`): they register no hooks from shared modules and leave no state behind, and a
 * fresh graph per file cost 70 s of CPU for 45 files against 28 s shared. `e2e` (test/) keeps one
 * per file: its helpers register hooks when first imported and hold servers and browsers.
 */
export default defineConfig({
  test: {
    // Four files at a time on two cores: a test takes up to twice as long as alone (the conformance
    // kit run from the dashboard took 34 s in CI), so each gets a minute.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most files wait on sockets, timers and child processes rather than compute: four at a time keep
    // two cores busy (two left them ~40% idle). VITEST_MAX_WORKERS overrides it.
    maxWorkers: Number(process.env.VITEST_MAX_WORKERS) || 4,
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'], isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.scale.test.ts', '**/*.package.test.ts'],
        },
      },
    ],
  },
});
