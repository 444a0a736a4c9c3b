import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BodyFile, StoredBody } from './body-file.js';
import { bodyMayHold, sketchBody, sketchOf, termBits } from './sketch.js';

/** Whether every bit of `bits` is set in `sketch`. */
const holdsBits = (sketch: Uint8Array, bits: readonly number[]) =>
  bits.every((bit) => (sketch[bit >>> 3]! & (1 << (bit & 7))) !== 0);

/** Values as the search reads them: any text (non-ASCII, astral, escapes, capitals), numbers, booleans, null. */
const leaf = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 24 }),
  fc.string({ unit: 'binary', maxLength: 24 }),
  fc.string({
    unit: fc.constantFrom('a', 'B', '"', '\\', '\n', '\u0001', '/', ':', ',', '{', ']'),
    maxLength: 12,
  }),
  fc.constantFrom('Ñúñez-Øst', 'İSTANBUL', 'ΟΔΥΣΣΕΥΣ', 'STRASSE ß', 'K\u212a'),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
);
/** Bodies nested a few levels, keys of any text (quotes and backslashes included). */
const { body } = fc.letrec<{ body: unknown }>((tie) => ({
  body: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('body'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 })),
      tie('body'),
      {
        maxKeys: 5,
      },
    ),
  ),
}));

/** Every value of `value` as the search compares it: `String(value)`, lower case. */
function valuesOf(value: unknown, out: string[] = []): string[] {
  if (value !== null && typeof value === 'object') for (const v of Object.values(value)) valuesOf(v, out);
  else out.push(String(value).toLowerCase());
  return out;
}

describe('a body sketch (decision 0254)', () => {
  it('never lacks a piece of a value: every substring of every value, lower case, may be held', () => {
    fc.assert(
      fc.property(body, (b) => {
        const json = JSON.stringify(b);
        const sketch = sketchOf(json);
        for (const value of valuesOf(JSON.parse(json)))
          for (let from = 0; from < value.length; from++)
            for (let to = from + 3; to <= Math.min(value.length, from + 10); to++)
              expect(holdsBits(sketch, termBits(value.slice(from, to))), value.slice(from, to)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('lacks what is in no value: key names, and text across two values', () => {
    const sketch = sketchOf(JSON.stringify({ LastName: 'abc', FirstName: 'def', Pax: [{ No: 12 }, 'ghi'] }));
    expect(holdsBits(sketch, termBits('abc'))).toBe(true);
    expect(holdsBits(sketch, termBits('lastname'))).toBe(false);
    expect(holdsBits(sketch, termBits('bcde'))).toBe(false);
    expect(holdsBits(sketch, termBits('ghi'))).toBe(true);
    expect(holdsBits(sketch, termBits('pax'))).toBe(false);
  });

  it('is kept per body in its file, read back by number across slabs, and a body without one may hold anything', () => {
    const file = new BodyFile(tmpdir()); // 600 sketches: four slabs written to the file, the fifth in memory
    const bodies = Array.from({ length: 600 }, (_, i) => {
      const stored = new StoredBody(file, i, 1);
      sketchBody(stored, JSON.stringify({ Name: `person${i}x` }));
      expect(bodyMayHold(stored, termBits(`person${i}x`))).toBe(true); // read at once: its slab still filling
      return stored;
    });
    let neighbours = 0;
    for (const [i, stored] of bodies.entries()) {
      expect(bodyMayHold(stored, termBits(`person${i}x`))).toBe(true);
      if (bodyMayHold(stored, termBits(`person${(i + 1) % 600}x`))) neighbours++;
    }
    expect(neighbours).toBeLessThan(30); // a sketch read from the wrong place would hold its neighbour's
    expect(bodyMayHold(new StoredBody(file, 0, 1), termBits('anything'))).toBe(true);
  });
});
