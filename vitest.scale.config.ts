import { defineConfig } from 'vitest/config';

/** `npm run test:scale`: the scale, soak and crash tests (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: ['test/**/*.scale.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/setup/file-hooks.ts'],
  },
});
