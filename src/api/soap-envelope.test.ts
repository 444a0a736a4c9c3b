import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ApiRequestError } from './api-error.js';
import { aspNetCall, envelopeCall, parseEnvelope } from './soap-envelope.js';
import { parseXml } from './xml-parse.js';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';

/** The 1.7 SOAP 1.1 call as an ASP.NET client writes it (test/fixtures and bench send the same). */
function aspNetEnvelope(username: string, password: string, declaration = DECLARATION): string {
  return (
    `${declaration}<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
    '<soap:Body><GetAccessToken xmlns="http://tempuri.org/"><request>' +
    `<Username>${username}</Username><Password>${password}</Password>` +
    '</request></GetAccessToken></soap:Body></soap:Envelope>'
  );
}

/** What validating and parsing the envelope with fast-xml-parser gives (or the error it throws). */
async function fullReading(text: string): Promise<unknown> {
  try {
    return envelopeCall(await parseXml(text), '1.1');
  } catch (err) {
    return err;
  }
}

const printableAscii = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((cp) => String.fromCharCode(cp)),
});
const anyText = fc.string({
  unit: fc.constantFrom(
    'a',
    '0',
    ' ',
    '&',
    '<',
    '>',
    ';',
    '"',
    "'",
    ']',
    '\r',
    '\t',
    'é',
    '&amp;',
    '&#65;',
    '&nbsp;',
  ),
});

describe('aspNetCall (the quick reading of an ASP.NET envelope)', () => {
  it('reads the ASP.NET envelope, with and without an XML declaration', () => {
    for (const declaration of [DECLARATION, '']) {
      const call = aspNetCall(aspNetEnvelope('alice', 's3cret!', declaration));
      expect(call?.operation).toEqual({
        request: { Username: 'alice', Password: 's3cret!' },
        '@_xmlns': 'http://tempuri.org/',
      });
    }
  });

  it('answers exactly what the full reading answers, for every credential in printable ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(printableAscii, printableAscii, fc.boolean(), async (u, p, decl) => {
        const text = aspNetEnvelope(u, p, decl ? DECLARATION : '');
        const quick = aspNetCall(text);
        // Plain text (no markup, no entities, not empty) always takes the quick reading.
        if (/^[^<>&]+$/.test(u) && /^[^<>&]+$/.test(p) && !/ /.test(u + p)) expect(quick).toBeDefined();
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 500 },
    );
  });

  it('leaves to the full reading whatever needs it: entities, markup, empty or non-ASCII fields', async () => {
    await fc.assert(
      fc.asyncProperty(anyText, anyText, async (u, p) => {
        const text = aspNetEnvelope(u, p);
        const quick = aspNetCall(text);
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 500 },
    );
    for (const [u, p] of [
      ['a&amp;b', 'x'],
      ['', 'x'],
      ['é', 'x'],
      ['a b', 'x'],
      ['a\tb', 'x'],
    ]) {
      expect(aspNetCall(aspNetEnvelope(u as string, p as string))).toBeUndefined();
    }
  });

  it('leaves any other shape of envelope to the full reading', () => {
    const plain = aspNetEnvelope('alice', 'pw');
    for (const text of [
      plain.replace('<soap:Body>', '<soap:Header/><soap:Body>'),
      plain.replace('<soap:Body>', '\n  <soap:Body>'),
      plain.replaceAll('soap:', 'env:').replace('xmlns:soap=', 'xmlns:env='),
      plain.replace('<request>', '<request xmlns="">'),
      plain.replace('</Password>', '</Password><Password>again</Password>'),
      ` ${plain}`,
      `${plain} `,
      `${plain}<x/>`,
      plain.replace('utf-8', 'utf-16'),
    ]) {
      expect(aspNetCall(text)).toBeUndefined();
    }
  });

  it('is what parseEnvelope answers for SOAP 1.1 only; a 1.1 envelope under SOAP 1.2 is still a VersionMismatch', async () => {
    const text = aspNetEnvelope('alice', 'pw');
    expect(await parseEnvelope(text, '1.1')).toEqual(aspNetCall(text));
    const err = await parseEnvelope(text, '1.2').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiRequestError);
    expect((err as ApiRequestError).soapFault).toBe('VersionMismatch');
  });
});
