// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${name} is the scenario interpolation syntax under test
import { describe, expect, it } from 'vitest';
import { getPath, matches, resolve } from './match.js';

describe('expectation matching', () => {
  it('reads dotted and indexed paths', () => {
    const body = { Reservation: { BookingStatus: 'Issued' }, Ticket: [{ Type: 'ETK' }, { Type: 'EMD' }] };
    expect(getPath(body, 'Reservation.BookingStatus')).toBe('Issued');
    expect(getPath(body, 'Ticket[1].Type')).toBe('EMD');
    expect(getPath(body, 'Ticket[5].Type')).toBeUndefined();
  });

  it('compares literals deeply and applies matches, exists and contains', () => {
    expect(matches({ a: [1, 2] }, { a: [1, 2] })).toBe(true);
    expect(matches({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(matches('attachment; filename=x.json', { matches: '^attachment; filename=' })).toBe(true);
    expect(matches(undefined, { exists: false })).toBe(true);
    expect(matches(null, { exists: true })).toBe(false);
    expect(matches(['non_canonical_casing: x'], { contains: 'casing' })).toBe(true);
  });

  it('replaces ${name} and ${name.field} with values named by as:', () => {
    const names = new Map([['first', { bookingId: 1000001, bookingNumber: 'ABC123' }]]);
    expect(resolve('${first}', names)).toBe(1000001);
    expect(resolve({ n: '${first.bookingNumber}', k: 'plain ${first}' }, names)).toEqual({
      n: 'ABC123',
      k: 'plain ${first}',
    });
  });
});
