/**
 * `generate` prints without the reservation store (no gzip, no strict re-validation, no unpacking),
 * and the store skips the strict parse of a generated Issue body without overrides: these tests prove
 * both print the same bytes the strict parse answers, for many seeds and every event, so skipping it
 * cannot change what is printed or sent.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NotificationBodyStrictSchema } from '../src/contract/index.js';
import { MAX_SEED } from '../src/generate/index.js';
import { notificationLines } from '../src/generate/ndjson.js';
import { expectLongRun, fast, viaStore } from './helpers/generate-store-path.js';

describe('generate without the store', () => {
  it.each(['Issue', 'Void', 'Exchange'] as const)(
    'prints the same bytes as the store path for %s over 100 seeds × 4 events',
    (event) => {
      fc.assert(
        fc.property(
          fc.integer({ min: 0, max: MAX_SEED }),
          fc.integer({ min: Date.parse('2020-01-01T00:00:00Z'), max: Date.parse('2030-01-01T00:00:00Z') }),
          fc.constantFrom('new', 'old', 'both') as fc.Arbitrary<'new' | 'old' | 'both'>,
          (seed, atMs, exchangeNotifies) => {
            const o = { event, count: 4, seed, atMs, exchangeNotifies };
            const lines = fast(o);
            expect(lines).toBe(viaStore(o));
            // The strict parse the store skips for generated bodies answers them byte for byte.
            for (const line of lines.split('\n')) {
              expect(JSON.stringify(NotificationBodyStrictSchema.parse(JSON.parse(line)))).toBe(line);
            }
          },
        ),
        { numRuns: 100 },
      );
    },
  );

  // The 2,000-Exchange run is in generate-fast-path.scale.test.ts (npm run test:scale).
  it('keeps BookingIDs unique and the bytes equal over a run of 200 Exchanges', () => {
    expectLongRun(200);
  });

  it('prints --pretty as the indented form of the same bodies', () => {
    const o = { event: 'Issue' as const, count: 3, seed: 11, atMs: Date.parse('2026-04-27T10:00:00Z') };
    const pretty = [...notificationLines({ ...o, exchangeNotifies: 'both', pretty: true })];
    const plain = [...notificationLines({ ...o, exchangeNotifies: 'both', pretty: false })];
    expect(pretty.map((p) => JSON.stringify(JSON.parse(p)))).toEqual(plain);
    expect(pretty[0]).toContain('\n  "');
  });
});
