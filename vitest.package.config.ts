import { defineConfig } from 'vitest/config';
import { TEST_DEADLINE_MS } from './test/helpers/deadline.js';

/** `npm run test:package`: the package, the image and the Testcontainers module as shipped (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: ['test/**/*.package.test.ts'],
    testTimeout: TEST_DEADLINE_MS,
    hookTimeout: TEST_DEADLINE_MS,
    pool: 'forks',
    setupFiles: ['test/setup/file-hooks.ts'],
  },
});
