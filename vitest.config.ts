import { configDefaults, defineConfig } from 'vitest/config';

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
 * fresh graph per file cost 70 s of CPU for 45 files against 29 s shared. `e2e-shared` (SHARED_GRAPH
 * below) shares one too; `e2e` (the rest of test/: the dashboard's browser tests) keeps one per
 * file.
 */
/**
 * End-to-end files that leave no process-wide state behind (listeners, environment, timers, mocks;
 * `runMain` restores stdout and the environment), nothing in shared modules, and close what they
 * start (the helpers'
 * clean-up runs in every file through test/helpers/file-hooks.ts): they share one module graph per
 * worker too. Measured alone, the first 26 took 125 s of CPU isolated, 93 s shared; the 29 added
 * next (in-process emulators: admin, delivery, persistence, notifications, programmatic) 109.7 s
 * isolated, 51.8 s shared (64.7 → 31.3 s wall); then 20 that mostly wait on child processes and
 * sockets (CLI runs, verify, serve, signals, ci-recipes) 205.0 s isolated, 191.4 s shared; then the
 * 7 that run the CLI's `main()` in their process 90.9 s isolated, 77.9–85.1 s shared. All pass with
 * the files shuffled. A new file is isolated unless added here.
 */
const SHARED_GRAPH = [
  'test/admin-bodies.test.ts',
  'test/admin-bounds.test.ts',
  'test/admin-contract.test.ts',
  'test/admin-fuzz.test.ts',
  'test/admin-methods.test.ts',
  'test/admin-refusals.test.ts',
  'test/admin-security.test.ts',
  'test/admin-token-clients.test.ts',
  'test/api-faults.test.ts',
  'test/api-hostile-inputs.test.ts',
  'test/auth-admin.test.ts',
  'test/certs.test.ts',
  'test/ci-recipes.test.ts',
  'test/cli-run.test.ts',
  'test/cold-start.test.ts',
  'test/config-env.test.ts',
  'test/config-refusals.test.ts',
  'test/contributor-setup.test.ts',
  'test/contract-documents.test.ts',
  'test/crash-cut-exhausted.test.ts',
  'test/dashboard-routes.test.ts',
  'test/delivery-batch-concurrency.test.ts',
  'test/delivery-cancel.test.ts',
  'test/delivery-compressed.test.ts',
  'test/delivery-connections.test.ts',
  'test/delivery-failures.test.ts',
  'test/delivery-headers.test.ts',
  'test/delivery-outage-table.test.ts',
  'test/delivery-outages.test.ts',
  'test/delivery-redelivery.test.ts',
  'test/delivery-routing.test.ts',
  'test/delivery-status.test.ts',
  'test/delivery-trust.test.ts',
  'test/docker-equivalent.test.ts',
  'test/docs-citations.test.ts',
  'test/docs-code-blocks.test.ts',
  'test/error-messages.test.ts',
  'test/generate-cli.test.ts',
  'test/generate-fast-path.test.ts',
  'test/generate-properties.test.ts',
  'test/getaccesstoken-asmx-fidelity.test.ts',
  'test/getaccesstoken-json.test.ts',
  'test/getaccesstoken-soap.test.ts',
  'test/getaccesstoken-xml.test.ts',
  'test/import-cycles.test.ts',
  'test/inspector-api.test.ts',
  'test/journal-size.test.ts',
  'test/live-stream.test.ts',
  'test/log-condense.test.ts',
  'test/log-format.test.ts',
  'test/notification-resend.test.ts',
  'test/notification-retention.test.ts',
  'test/notification-search.test.ts',
  'test/openapi.test.ts',
  'test/persistence-damage.test.ts',
  'test/persistence-disk-full.test.ts',
  'test/persistence-history.test.ts',
  'test/persistence-record-kinds.test.ts',
  'test/persistence-record-reader.test.ts',
  'test/persistence-unkept.test.ts',
  'test/persistence-writes.test.ts',
  'test/persistence.test.ts',
  'test/programmatic-options.test.ts',
  'test/programmatic.test.ts',
  'test/readme-config.test.ts',
  'test/readme-tour.test.ts',
  'test/release-check.test.ts',
  'test/run-reports.test.ts',
  'test/run-target.test.ts',
  'test/sample-receiver.test.ts',
  'test/scenario-file-size.test.ts',
  'test/scenarios-behaviours.test.ts',
  'test/scenarios-invalid.test.ts',
  'test/scenarios-serve.test.ts',
  'test/serve.test.ts',
  'test/shutdown.test.ts',
  'test/signals.test.ts',
  'test/verify-bugs.test.ts',
  'test/verify-cli.test.ts',
  'test/verify-correct-receivers.test.ts',
  'test/verify-dead-or-slow.test.ts',
  'test/verify-replay.test.ts',
  'test/verify-round3.test.ts',
  'test/verify.test.ts',
  'test/workflows.test.ts',
  'test/write-routes-kept.test.ts',
];

export default defineConfig({
  test: {
    // Four files at a time on two cores: a test takes up to twice as long as alone (the conformance
    // kit run from the dashboard took 34 s in CI), so each gets a minute.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Registers the helpers' clean-up in each test file (test/helpers/file-hooks.ts).
    setupFiles: ['test/setup/file-hooks.ts'],
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
        test: { name: 'e2e-shared', include: SHARED_GRAPH, isolate: false },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, '**/*.scale.test.ts', '**/*.package.test.ts', ...SHARED_GRAPH],
        },
      },
    ],
  },
});
