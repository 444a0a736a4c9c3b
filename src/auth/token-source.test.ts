import { describe, expect, it } from 'vitest';
import { cryptoTokenSource, seededTokenSource } from './token-source.js';

describe('token sources', () => {
  it('gives distinct 32-hex-character crypto tokens, also across refills of its random pool', () => {
    const next = cryptoTokenSource();
    const tokens = Array.from({ length: 1_000 }, () => next());
    for (const t of tokens) expect(t).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
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
    for (const t of take(42)) expect(t).toMatch(/^[0-9a-f]{32}$/);
  });
});
