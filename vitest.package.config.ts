import { defineConfig } from 'vitest/config';

/** `npm run test:package`: the package, the image and the Testcontainers module as shipped (see vitest.config.ts). */
export default defineConfig({
  test: {
    include: ['test/**/*.package.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    setupFiles: ['test/setup/file-hooks.ts'],
  },
});
