/**
 * Setup file of every vitest project (vitest.config.ts and the scale and package configs): registers
 * the after-hooks of test/helpers/file-hooks.ts in each test file.
 */
import { afterAll, afterEach } from 'vitest';
import { runAfterEachTest, runAtFileEnd } from '../helpers/file-hooks.js';

afterEach(runAfterEachTest);
afterAll(runAtFileEnd);
