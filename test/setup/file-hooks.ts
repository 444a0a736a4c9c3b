/**
 * Setup file of every vitest project (vitest.config.ts and the scale and package configs): registers
 * the after-hooks of test/helpers/file-hooks.ts in each test file, and adds the machine's load to
 * the error of a test that failed, so a failure caused by a loaded machine reads as one.
 */
import { afterAll, afterEach } from 'vitest';
import { loadNote } from '../helpers/deadline.js';
import { runAfterEachTest, runAtFileEnd } from '../helpers/file-hooks.js';

afterEach(runAfterEachTest);
afterEach(({ task }) => {
  for (const error of task.result?.errors ?? []) {
    if (typeof error.message === 'string' && !error.message.includes('load average'))
      error.message += ` (${loadNote()})`;
  }
});
afterAll(runAtFileEnd);
