import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InterimFilter, interimHead } from './connection-watch.js';

const FINAL = 'HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok';

describe('interim responses in front of the final one', () => {
  it('tells an interim head from a final response from too few bytes', () => {
    expect(interimHead(Buffer.from('HTTP/1.1 100 Continue\r\n\r\nrest'))).toBe(25);
    expect(interimHead(Buffer.from('HTTP/1.1 10'))).toBe('more');
    expect(interimHead(Buffer.from('HTTP/1.1 100 Continue\r\n'))).toBe('more');
    expect(interimHead(Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))).toBe('final');
    expect(interimHead(Buffer.from('HTTP/1.1 101 Switching Protocols\r\n\r\n'))).toBe('final');
    expect(interimHead(Buffer.from('hello'))).toBe('final');
  });

  it('hands the parser exactly the final response, however the bytes are split', () => {
    const interim = fc.constantFrom(
      'HTTP/1.1 100 Continue\r\n\r\n',
      'HTTP/1.0 100 Continue\r\n\r\n',
      'HTTP/1.1 102 Processing\r\n\r\n',
      'HTTP/1.1 103 Early Hints\r\nLink: </a>; rel=preload\r\n\r\n',
    );
    fc.assert(
      fc.property(
        fc.array(interim, { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (heads, cuts) => {
          const wire = Buffer.from(heads.join('') + FINAL);
          const points = [...new Set(cuts.map((c) => c % wire.length))].sort((a, b) => a - b);
          const filter = new InterimFilter();
          filter.requestWritten();
          const out: Buffer[] = [];
          let from = 0;
          for (const at of [...points, wire.length]) {
            const taken = filter.take(wire.subarray(from, at));
            if (taken) out.push(taken);
            from = at;
          }
          expect(Buffer.concat(out).toString()).toBe(FINAL);
          expect(filter.dropped).toBe(heads.length);
        },
      ),
    );
  });

  it('passes body bytes through untouched once the final response began', () => {
    const filter = new InterimFilter();
    filter.requestWritten();
    filter.take(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 30\r\n\r\n'));
    const body = Buffer.from('HTTP/1.1 100 Continue\r\n\r\nxxxx');
    expect(filter.take(body)).toBe(body);
  });
});
