import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cryptoTokenSource, letterFirst, seededTokenSource } from './token-source.js';

/** 32 lower-case hex characters whose first is a letter: never mistaken for a "1200 - …" error. */
const TOKEN = /^[a-f][0-9a-f]{31}$/;

describe('token sources', () => {
  it('gives distinct crypto tokens that begin with a letter, also across refills of its random pool', () => {
    const next = cryptoTokenSource();
    const tokens = Array.from({ length: 5_000 }, () => next());
    for (const t of tokens) expect(t).toMatch(TOKEN);
    expect(new Set(tokens).size).toBe(tokens.length);
    // Every letter a–f occurs first: the first character still carries randomness.
    expect(new Set(tokens.map((t) => t[0]))).toEqual(new Set('abcdef'));
  });

  it('gives independent crypto sources different tokens', () => {
    const a = cryptoTokenSource();
    const b = cryptoTokenSource();
    expect(a()).not.toBe(b());
  });

  it('repeats the same seeded tokens for the same seed and differs for another', () => {
    const take = (seed: number) => {
      const next = seededTokenSource(seed);
      return [next(), next(), next()];
    };
    expect(take(42)).toEqual(take(42));
    expect(take(42)).not.toEqual(take(43));
  });

  it('never lets a seeded token begin with a digit, whatever the seed (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (seed) => {
        const next = seededTokenSource(seed);
        for (let i = 0; i < 50; i++) expect(next()).toMatch(TOKEN);
      }),
      { numRuns: 2_000 },
    );
  });

  it('maps every byte to one whose high nibble is a hex letter and keeps the low nibble', () => {
    for (let byte = 0; byte < 256; byte++) {
      const out = letterFirst(byte);
      expect(out >>> 4).toBeGreaterThanOrEqual(0xa);
      expect(out >>> 4).toBeLessThanOrEqual(0xf);
      expect(out & 0x0f).toBe(byte & 0x0f);
    }
  });
});
