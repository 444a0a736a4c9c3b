import { describe, expect, it } from 'vitest';
import { describeValue } from './experiments.js';

describe('describeValue: how a finding names the class of a failing value', () => {
  it('names an empty array, a character outside the BMP, combining marks, right-to-left letters and a long string', () => {
    expect(describeValue([])).toBe('is an empty array');
    expect(describeValue([1, 2])).toBe('has 2 elements');
    expect(describeValue('𠮷野')).toBe(
      'is "𠮷野" (a character outside the Basic Multilingual Plane (U+20BB7: 4 bytes in UTF-8))',
    );
    expect(describeValue('Thi\u0323')).toBe('is "Thi\u0323" (combining marks (U+0323))');
    expect(describeValue('x'.repeat(46))).toMatch(/^is "x+" \(46 characters\)$/);
    expect(describeValue('בן דוד')).toBe('is "בן דוד" (right-to-left letters)');
    // Twice in a row, the second with its only right-to-left letter first: no state between calls.
    expect(describeValue('נ-1')).toBe('is "נ-1" (right-to-left letters)');
    expect(describeValue('Zoë')).toBe('is "Zoë"');
  });
});
