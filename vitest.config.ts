import { configDefaults, defineConfig } from 'vitest/config';

/**
 * `npm test`: the complete functional suite, every feature end to end. The scale, soak and crash
 * tests (`*.scale.test.ts`: thousands of notifications, minute-long runs, kill -9 loops) run with
 * `npm run test:scale` (vitest.scale.config.ts); `.ci/run` runs both.
 */
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, '**/*.scale.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
