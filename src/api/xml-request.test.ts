import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyText, plain, printableAscii } from '../../test/helpers/xml-arbitraries.js';
import { parseXml } from './xml-parse.js';
import { simpleRequest } from './xml-request.js';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

function request(username: string, password: string, declaration = true): string {
  return `${declaration ? DECLARATION : ''}<GetAccessTokenRequest><Username>${username}</Username><Password>${password}</Password></GetAccessTokenRequest>`;
}

/** What validating and parsing with fast-xml-parser gives (or the error it throws). */
async function fullReading(text: string): Promise<unknown> {
  return parseXml(text).catch((err: unknown) => err);
}

describe('simpleRequest (the quick reading of a GetAccessTokenRequest)', () => {
  it('answers exactly what parseXml answers, for every credential in printable ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(printableAscii, printableAscii, fc.boolean(), async (u, p, declaration) => {
        const text = request(u, p, declaration);
        const quick = simpleRequest(text);
        if (plain(u) && plain(p))
          expect(quick).toEqual({ GetAccessTokenRequest: { Username: u, Password: p } });
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves entities, markup, empty or non-ASCII fields and any other shape to parseXml', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, anyText, async (u, p) => {
        const text = request(u, p);
        const quick = simpleRequest(text);
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 1000 },
    );
    const ok = request('alice', 'pw');
    for (const text of [
      request('a&amp;b', 'x'),
      request('', 'x'),
      request('a b', 'x'),
      ok.replace('<GetAccessTokenRequest>', '<GetAccessTokenRequest xmlns="http://tempuri.org/">'),
      ok.replace('<Username>', '\n<Username>'),
      ok.replaceAll('Username', 'username'),
      ok.replace('</Password>', '</Password><Password>again</Password>'),
      ` ${ok}`,
      `${ok}<x/>`,
    ]) {
      expect(simpleRequest(text)).toBeUndefined();
    }
  });
});
