import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type JsonPath, JsonScanError, JsonScanner, type ScanChoice } from './json-scan.js';

/** Scans `text` cut into pieces at `cuts`, choosing `choose(path)`; answers the kept values by path, or the error. */
function scan(text: string, cuts: number[], choose: (path: JsonPath) => ScanChoice) {
  const bytes = Buffer.from(text, 'utf8');
  const kept = new Map<string, unknown>();
  const spans: Array<{ path: string; text: string; base64: boolean }> = [];
  const scanner = new JsonScanner({
    select: choose,
    value: (path, value) => kept.set(JSON.stringify(path), value),
    span: (path, s) =>
      spans.push({
        path: JSON.stringify(path),
        text: bytes.subarray(s.start, s.end).toString(),
        base64: s.base64,
      }),
  });
  let at = 0;
  try {
    for (const cut of [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)) {
      scanner.write(bytes.subarray(at, cut));
      at = cut;
    }
    scanner.write(bytes.subarray(at));
    scanner.end();
  } catch (err) {
    if (err instanceof JsonScanError) return { error: err.message };
    throw err;
  }
  return { kept, spans };
}

const parses = (text: string) => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Leaves of a JSON value by path, as a scan that descends everywhere keeps them. */
function leaves(value: unknown, path: Array<string | number> = [], out = new Map<string, unknown>()) {
  if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      leaves(v, [...path, Array.isArray(value) ? Number(k) : k], out);
  } else out.set(JSON.stringify(path), value);
  return out;
}

const cuts = fc.array(fc.nat(), { maxLength: 8 });
const json = fc.jsonValue({ maxDepth: 6 });

describe('JsonScanner', () => {
  it('keeps a whole document as JSON.parse reads it, however it is cut into pieces', () => {
    fc.assert(
      fc.property(json, fc.constantFrom(0, 2), cuts, (value, indent, at) => {
        const text = JSON.stringify(value, null, indent);
        expect(scan(text, at, () => 'keep')).toEqual({
          kept: new Map([['[]', JSON.parse(text)]]),
          spans: [],
        });
      }),
    );
  });

  it('descending everywhere hands over every leaf at its path', () => {
    fc.assert(
      fc.property(json, cuts, (value, at) => {
        const text = JSON.stringify(value);
        const got = scan(text, at, () => 'descend');
        expect('kept' in got && got.kept).toEqual(leaves(JSON.parse(text)));
      }),
    );
  });

  it('accepts exactly what JSON.parse accepts (text made of JSON pieces, mangled)', () => {
    const piece = fc.constantFrom(
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      '"a"',
      '"\\u00e9"',
      '"\\x"',
      '1',
      '-0.5e3',
      '01',
      'true',
      'nul',
      ' ',
      '\n',
      '"\t"',
      'é',
      '"é"',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 14 }), cuts, (pieces, at) => {
        const text = pieces.join('');
        expect('error' in scan(text, at, () => 'skip')).toBe(!parses(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it('spans a string by its bytes and says whether it is base64; skipped values are not kept', () => {
    const text = JSON.stringify({ a: { body: 'QUJD+/==', other: [1, 2] }, b: 'not base64!', c: 'x\\"y' });
    const got = scan(text, [7, 19], (path) =>
      path.length === 0 || (path[0] === 'a' && path.length === 1)
        ? 'descend'
        : path.at(-1) === 'other'
          ? 'skip'
          : 'span',
    );
    expect(got).toEqual({
      kept: new Map(),
      spans: [
        { path: '["a","body"]', text: 'QUJD+/==', base64: true },
        { path: '["b"]', text: 'not base64!', base64: false },
        { path: '["c"]', text: 'x\\\\\\"y', base64: false },
      ],
    });
  });

  it('refuses nesting deeper than it keeps, and a kept value over its size, naming where', () => {
    expect(scan('['.repeat(65) + ']'.repeat(65), [], () => 'skip')).toEqual({
      error: 'nested deeper than 64 at byte 64',
    });
    expect(
      scan(JSON.stringify({ big: 'x'.repeat(2 * 1024 * 1024) }), [], (p) => (p.length ? 'keep' : 'descend')),
    ).toMatchObject({
      error: expect.stringMatching(/too long/),
    });
  });
});
