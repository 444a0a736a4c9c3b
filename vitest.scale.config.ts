import { defineConfig } from 'vitest/config';
import { TEST_DEADLINE_MS } from './test/helpers/deadline.js';

/** `npm run test:scale`: the scale, soak and crash tests (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: ['test/**/*.scale.test.ts'],
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: TEST_DEADLINE_MS,
    pool: 'forks',
    setupFiles: ['test/setup/file-hooks.ts'],
  },
});
