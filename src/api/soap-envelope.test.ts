import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anyText, plain, printableAscii } from '../../test/helpers/xml-arbitraries.js';
import { ApiRequestError } from './api-error.js';
import { envelopeCall, parseEnvelope, simpleCall } from './soap-envelope.js';
import { parseXml } from './xml-parse.js';

const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const NS = {
  '1.1': 'http://schemas.xmlsoap.org/soap/envelope/',
  '1.2': 'http://www.w3.org/2003/05/soap-envelope',
} as const;
const SCHEMAS =
  ' xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

interface Shape {
  soap: '1.1' | '1.2';
  declaration: boolean;
  /** xsi and xsd declared on the Envelope, as ASP.NET's proxies write it. */
  schemas: boolean;
  op: '1.6' | '1.7';
}
const ASP_NET: Shape = { soap: '1.1', declaration: true, schemas: true, op: '1.7' };

/** A compact GetAccessToken call (ASP.NET's proxies write `ASP_NET`; the bench sends these shapes). */
function compactEnvelope(username: string, password: string, shape: Shape = ASP_NET): string {
  const op =
    shape.op === '1.7'
      ? `<request><Username>${username}</Username><Password>${password}</Password></request>`
      : `<username>${username}</username><password>${password}</password>`;
  return (
    `${shape.declaration ? DECLARATION : ''}<soap:Envelope xmlns:soap="${NS[shape.soap]}"${shape.schemas ? SCHEMAS : ''}>` +
    `<soap:Body><GetAccessToken xmlns="http://tempuri.org/">${op}</GetAccessToken></soap:Body></soap:Envelope>`
  );
}

/** What validating and parsing the envelope with fast-xml-parser gives (or the error it throws). */
async function fullReading(text: string): Promise<unknown> {
  try {
    return envelopeCall(await parseXml(text));
  } catch (err) {
    return err;
  }
}

const shapes = fc.record({
  soap: fc.constantFrom('1.1' as const, '1.2' as const),
  declaration: fc.boolean(),
  schemas: fc.boolean(),
  op: fc.constantFrom('1.6' as const, '1.7' as const),
});

describe('simpleCall (the quick reading of a compact envelope)', () => {
  it('reads the ASP.NET envelope of a 1.7 call, with and without an XML declaration', () => {
    for (const declaration of [true, false]) {
      const call = simpleCall(compactEnvelope('alice', 's3cret!', { ...ASP_NET, declaration }));
      expect(call?.operation).toEqual({
        request: { Username: 'alice', Password: 's3cret!' },
        '@_xmlns': 'http://tempuri.org/',
      });
    }
  });

  it('answers exactly what the full reading answers, for every shape and credential in printable ASCII', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, printableAscii, printableAscii, async (shape, u, p) => {
        const text = compactEnvelope(u, p, shape);
        const quick = simpleCall(text);
        // Plain text (no markup, no entities, no spaces, not empty) always takes the quick reading.
        if (plain(u) && plain(p)) expect(quick).toBeDefined();
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 1000 },
    );
  });

  it('leaves to the full reading whatever needs it: entities, markup, empty or non-ASCII fields', async () => {
    await fc.assert(
      fc.asyncProperty(shapes, anyText, anyText, async (shape, u, p) => {
        const text = compactEnvelope(u, p, shape);
        const quick = simpleCall(text);
        if (quick) expect(quick).toEqual(await fullReading(text));
      }),
      { numRuns: 1000 },
    );
    for (const [u, p] of [
      ['a&amp;b', 'x'],
      ['', 'x'],
      ['é', 'x'],
      ['a b', 'x'],
      ['a\tb', 'x'],
    ]) {
      expect(simpleCall(compactEnvelope(u as string, p as string))).toBeUndefined();
    }
  });

  it('leaves any other shape of envelope to the full reading', () => {
    const plain = compactEnvelope('alice', 'pw');
    for (const text of [
      plain.replace('<soap:Body>', '<soap:Header/><soap:Body>'),
      plain.replace('<soap:Body>', '\n  <soap:Body>'),
      plain.replaceAll('soap:', 'env:').replace('xmlns:soap=', 'xmlns:env='),
      plain.replace('<request>', '<request xmlns="">'),
      plain.replace('</Password>', '</Password><Password>again</Password>'),
      plain.replace('<Username>alice</Username>', '<username>alice</username>'),
      ` ${plain}`,
      `${plain} `,
      `${plain}<x/>`,
      plain.replace('utf-8', 'utf-16'),
    ]) {
      expect(simpleCall(text)).toBeUndefined();
    }
  });

  it('is what parseEnvelope answers, in the version its namespace names; another namespace is a VersionMismatch', async () => {
    for (const soap of ['1.1', '1.2'] as const) {
      const text = compactEnvelope('alice', 'pw', { ...ASP_NET, soap });
      const call = await parseEnvelope(text);
      expect(call).toEqual(simpleCall(text));
      expect(call.soap).toBe(soap);
      const other = text.replace(NS[soap], 'urn:not-soap');
      expect(simpleCall(other)).toBeUndefined();
      const err = await parseEnvelope(other).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiRequestError);
      expect((err as ApiRequestError).soapFault).toBe('VersionMismatch');
    }
  });
});
