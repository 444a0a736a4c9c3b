import { describe, expect, it } from 'vitest';
import { closestKey, unknownKeyMessage } from './closest-key.js';

const KEYS = ['adminToken', 'hourMs', 'port', 'caFile', 'clockStart'];

describe('closestKey', () => {
  it('names the key a one-letter typo meant, whatever its case', () => {
    expect(closestKey('adminTokn', KEYS)).toBe('adminToken');
    expect(closestKey('hourMS', KEYS)).toBe('hourMs');
    expect(closestKey('CAFILE', KEYS)).toBe('caFile');
  });

  it('names nothing when no key is close', () => {
    expect(closestKey('banana', KEYS)).toBeUndefined();
    expect(closestKey('x', KEYS)).toBeUndefined();
  });

  it('builds the one sentence errors use, with and without a suggestion', () => {
    expect(unknownKeyMessage('setting', 'adminTokn', KEYS)).toBe(
      'unknown setting "adminTokn" (did you mean "adminToken"?)',
    );
    expect(unknownKeyMessage('option', 'banana', KEYS)).toBe('unknown option "banana"');
  });
});
