import { describe, expect, it } from 'vitest';
import { acknowledges } from './acknowledgement.js';

describe('acknowledges', () => {
  it('counts only an HTTP answer with status exactly 200', () => {
    expect(acknowledges({ outcome: 'http_status', statusCode: 200 })).toBe(true);
    for (const statusCode of [201, 202, 204, 299, 301, 500]) {
      expect(acknowledges({ outcome: 'http_status', statusCode })).toBe(false);
    }
  });

  it('never counts an attempt that did not end in a readable answer, even one that carried a 200', () => {
    expect(acknowledges({ outcome: 'timeout', statusCode: 200 })).toBe(false);
    expect(acknowledges({ outcome: 'simulated_outage' })).toBe(false);
    expect(acknowledges(undefined)).toBe(false);
  });
});
