/**
 * Scale (npm run test:scale): `generate`'s fast path over a long run of one seed, 2,000 Exchanges
 * (4,000 bodies): the same bytes as the store path, and no BookingID twice. npm test runs the same
 * check over 200 Exchanges and 100 seeds of every event (test/generate-fast-path.test.ts).
 */
import { it } from 'vitest';
import { expectLongRun } from './helpers/generate-store-path.js';

it('keeps BookingIDs unique and the bytes equal over a long run (2,000 Exchanges)', () => {
  expectLongRun(2_000);
});
