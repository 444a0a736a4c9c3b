import { XMLParser } from 'fast-xml-parser';
import * as soap from 'soap';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { rawRequest } from './helpers/api-raw-http.js';
import { post, startApiServer, TOKEN } from './helpers/api-server.js';
import { envelope, op16, op17, postEnvelope, soapHeaders } from './helpers/soap-envelopes.js';

// What real clients (Mono wsdl/disco/svcutil, WCF, zeep, SOAP::Lite) tripped on: decision 0023.

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
  // A user whose credentials are not ASCII: a body decoded in the wrong charset cannot log in.
  const res = await post(
    `${api.url}/__admin/users`,
    JSON.stringify({ username: 'josé', password: 'contraseña', idWeb: 2001, webDescription: 'Agência' }),
    'application/json',
  );
  expect(res.status).toBe(201);
});
afterAll(() => api.close());
beforeEach(() => api.emulator.reset());

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is navigated freely by the assertions
type Tree = any;
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false });
const FLIGHT = () => `${api.url}/api/1.6/FlightService.asmx`;
const AUTH = () => `${api.url}/api/1.7/AuthService.asmx`;
const SERVICES = [
  ['FlightService', FLIGHT],
  ['AuthService', AUTH],
] as const;

const tokenCount = async () =>
  ((await (await fetch(`${api.url}/__admin/tokens`)).json()) as { tokens: unknown[] }).tokens.length;
const journal = async (query = '') =>
  (
    (await (await fetch(`${api.url}/__admin/requests${query}`)).json()) as {
      requests: Array<Record<string, unknown>>;
    }
  ).requests;

/** The token in a 1.7 SOAP answer, or throws with the answer text. */
async function soapToken(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  const env = parser.parse(text)['soap:Envelope'];
  return env['soap:Body'].GetAccessTokenResponse.GetAccessTokenResult.Token;
}

describe('methods on .asmx (item 2)', () => {
  it('refuses PUT, DELETE and PATCH with a valid envelope: 405, Allow, a client Fault, no token issued', async () => {
    for (const [service, url] of SERVICES) {
      for (const method of ['PUT', 'DELETE', 'PATCH']) {
        for (const v of ['1.1', '1.2'] as const) {
          const op = service === 'FlightService' ? op16('alice', ' 00123 ') : op17('alice', ' 00123 ');
          const ans = await rawRequest(url(), {
            method,
            headers: soapHeaders(v),
            body: Buffer.from(envelope(v, op)),
          });
          const where = `${method} ${service} SOAP ${v}`;
          expect(ans.status, where).toBe(405);
          expect(ans.headers.allow, where).toBe('GET, HEAD, POST');
          const env = parser.parse(ans.text)['soap:Envelope'];
          const fault = env['soap:Body']['soap:Fault'];
          if (v === '1.1') {
            expect(fault.faultcode).toBe('soap:Client');
            expect(fault.faultstring).toBe(
              `Method ${method} is not allowed on ${service}.asmx: POST runs GetAccessToken; GET serves the help page, ?wsdl and ?disco.`,
            );
          } else {
            expect(fault['soap:Code']['soap:Value']).toBe('soap:Sender');
          }
        }
      }
    }
    expect(await tokenCount()).toBe(0);
    const refused = await journal('?outcome=malformed_request');
    expect(refused).toHaveLength(12);
    expect(new Set(refused.map((r) => r.httpStatus))).toEqual(new Set([405]));
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await fetch(`${AUTH()}?wsdl`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('lets a node-soap client call with POST but not with PUT', async () => {
    const client = await soap.createClientAsync(`${AUTH()}?wsdl`);
    const args = { request: { Username: 'alice', Password: ' 00123 ' } };
    const [ok] = await client.GetAccessTokenAsync(args);
    expect(ok.GetAccessTokenResult.Token).toMatch(TOKEN);
    // node-soap hands extra options to its HTTP client: the same call sent as PUT.
    await expect(client.GetAccessTokenAsync(args, { method: 'PUT' })).rejects.toMatchObject({
      response: { status: 405, headers: { allow: 'GET, HEAD, POST' } },
    });
    expect(await tokenCount()).toBe(1);
  });
});

describe('mustUnderstand headers (item 3)', () => {
  const withHeader = (v: '1.1' | '1.2', header: string) => {
    const prefix = v === '1.1' ? 'soap' : 'soap12';
    return envelope(v, op17('alice', ' 00123 ')).replace(
      `<${prefix}:Body>`,
      `<${prefix}:Header>${header.replaceAll('ENV', prefix)}</${prefix}:Header><${prefix}:Body>`,
    );
  };

  it('SOAP 1.1: an unknown header with mustUnderstand="1" is a soap:MustUnderstand Fault and issues no token', async () => {
    const res = await postEnvelope(
      AUTH(),
      '1.1',
      withHeader('1.1', '<w:Trace xmlns:w="urn:example:trace" ENV:mustUnderstand="1">x</w:Trace>'),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const env = parser.parse(await res.text())['soap:Envelope'];
    expect(env['soap:Header']).toBeUndefined();
    const fault = env['soap:Body']['soap:Fault'];
    expect(fault.faultcode).toBe('soap:MustUnderstand');
    expect(fault).not.toHaveProperty('detail');
    expect(fault.faultstring).toMatch(
      /^SOAP header Trace \(namespace urn:example:trace\) was not understood/,
    );
    expect(await tokenCount()).toBe(0);
  });

  it.each([
    ['true', 'ENV:mustUnderstand="true"'],
    ['1', 'ENV:mustUnderstand="1"'],
  ])(
    'SOAP 1.2: mustUnderstand="%s" is a MustUnderstand Fault with a NotUnderstood header',
    async (_v, attr) => {
      const res = await postEnvelope(
        AUTH(),
        '1.2',
        withHeader('1.2', `<w:Trace xmlns:w="urn:example:trace" ${attr}/>`),
      );
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/soap+xml; charset=utf-8');
      const env = parser.parse(await res.text())['soap:Envelope'];
      expect(env['soap:Header']['soap:NotUnderstood']).toEqual({
        '@_qname': 'q:Trace',
        '@_xmlns:q': 'urn:example:trace',
      });
      expect(env['soap:Body']['soap:Fault']['soap:Code']['soap:Value']).toBe('soap:MustUnderstand');
    },
  );

  it('ignores headers without mustUnderstand or with it false', async () => {
    for (const [v, header] of [
      ['1.1', '<w:Trace xmlns:w="urn:x">x</w:Trace>'],
      ['1.1', '<w:Trace xmlns:w="urn:x" ENV:mustUnderstand="0">x</w:Trace>'],
      ['1.1', '<w:Trace xmlns:w="urn:x" mustUnderstand="1">unqualified attribute: not SOAP\'s</w:Trace>'],
      ['1.2', '<w:Trace xmlns:w="urn:x" ENV:mustUnderstand="false"/>'],
    ] as const) {
      expect(await soapToken(await postEnvelope(AUTH(), v, withHeader(v, header))), header).toMatch(TOKEN);
    }
  });

  it('faults on a mustUnderstand header aimed at another actor or role too, as ASMX does, with no detail element', async () => {
    for (const [v, header] of [
      ['1.1', '<w:Trace xmlns:w="urn:x" ENV:mustUnderstand="1" ENV:actor="urn:some-proxy">x</w:Trace>'],
      [
        '1.2',
        '<w:Trace xmlns:w="urn:x" ENV:mustUnderstand="true" ENV:role="http://www.w3.org/2003/05/soap-envelope/role/none"/>',
      ],
    ] as const) {
      const res = await postEnvelope(AUTH(), v, withHeader(v, header));
      expect(res.status, header).toBe(500);
      const fault = parser.parse(await res.text())['soap:Envelope']['soap:Body']['soap:Fault'];
      if (v === '1.1') {
        expect(fault.faultcode).toBe('soap:MustUnderstand');
        expect(fault).not.toHaveProperty('detail');
      } else {
        expect(fault['soap:Code']['soap:Value']).toBe('soap:MustUnderstand');
        expect(fault).not.toHaveProperty('soap:Detail');
      }
    }
    expect(await tokenCount()).toBe(0);
  });

  it('node-soap clients that add a mustUnderstand header get the Fault, in either version', async () => {
    for (const forceSoap12Headers of [false, true]) {
      const client = await soap.createClientAsync(`${AUTH()}?wsdl`, { forceSoap12Headers });
      client.addSoapHeader(
        '<w:Session xmlns:w="urn:example:session" soap:mustUnderstand="1">abc</w:Session>',
      );
      const err = await client
        .GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } })
        .then(
          () => null,
          (e: Error & { root?: Tree; response?: { status: number } }) => e,
        );
      expect(err?.response?.status).toBe(500);
      expect(err?.message).toMatch(/MustUnderstand/);
      expect(err?.message).toMatch(
        /SOAP header Session \(namespace urn:example:session\) was not understood/,
      );
    }
    expect(await tokenCount()).toBe(0);
  });
});

describe('discovery (item 4)', () => {
  it.each(SERVICES)('%s.asmx?disco names the WSDL and both SOAP bindings', async (service, url) => {
    const res = await fetch(`${url()}?DISCO`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const disco = parser.parse(await res.text()).discovery;
    expect(disco['@_xmlns']).toBe('http://schemas.xmlsoap.org/disco/');
    expect(disco.contractRef).toMatchObject({
      '@_ref': `${url()}?wsdl`,
      '@_docRef': url(),
      '@_xmlns': 'http://schemas.xmlsoap.org/disco/scl/',
    });
    const bindings = (disco.soap as Tree[]).map((s) => {
      const [prefix, local] = String(s['@_binding']).split(':');
      return { address: s['@_address'], ns: s[`@_xmlns:${prefix}`], local };
    });
    expect(bindings).toEqual([
      { address: url(), ns: 'http://tempuri.org/', local: `${service}Soap` },
      { address: url(), ns: 'http://tempuri.org/', local: `${service}Soap12` },
    ]);
    // The bindings it names are the WSDL's.
    const wsdl = await (await fetch(disco.contractRef['@_ref'])).text();
    for (const b of bindings) expect(wsdl).toContain(`<wsdl:binding name="${b.local}"`);
  });

  it.each(SERVICES)(
    'from the plain %s.asmx URL, a client follows the help page to the disco, the WSDL and a token',
    async (service, url) => {
      const page = await (await fetch(url())).text();
      const link = /<link rel="alternate" type="text\/xml" href="([^"]+)"\/>/.exec(page);
      expect(link?.[1]).toBe(`${url()}?disco`);
      expect(page).toContain(`href="${url()}?wsdl"`);
      const disco = parser.parse(await (await fetch(link![1]!)).text()).discovery;
      const client = await soap.createClientAsync(disco.contractRef['@_ref']);
      const [res] =
        service === 'FlightService'
          ? await client.GetAccessTokenAsync({ username: 'alice', password: ' 00123 ' })
          : await client.GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } });
      const token = service === 'FlightService' ? res.GetAccessTokenResult : res.GetAccessTokenResult.Token;
      expect(token).toMatch(TOKEN);
    },
  );
});

describe('charsets (item 5)', () => {
  const BOM16LE = Buffer.from([0xff, 0xfe]);
  const BOM16BE = Buffer.from([0xfe, 0xff]);
  const utf16be = (s: string) => Buffer.from(s, 'utf16le').swap16();
  const joseXml = (decl: string) =>
    envelope('1.1', op17('josé', 'contraseña')).replace('encoding="utf-8"', `encoding="${decl}"`);

  it('takes SOAP 1.1 in UTF-16 LE with a byte order mark, as .NET clients send it', async () => {
    const xml = joseXml('utf-16');
    const ans = await rawRequest(AUTH(), {
      headers: { ...soapHeaders('1.1'), 'content-type': 'text/xml; charset=utf-16' },
      body: Buffer.concat([BOM16LE, Buffer.from(xml, 'utf16le')]),
    });
    expect(ans.status, ans.text).toBe(200);
    expect(
      parser.parse(ans.text)['soap:Envelope']['soap:Body'].GetAccessTokenResponse.GetAccessTokenResult,
    ).toMatchObject({ Token: expect.stringMatching(TOKEN), WebDescription: 'Agência' });
  });

  it('takes SOAP 1.2 in UTF-16 BE with a byte order mark even when the Content-Type says nothing', async () => {
    const xml = envelope('1.2', op17('josé', 'contraseña')).replace('encoding="utf-8"', 'encoding="utf-16"');
    const ans = await rawRequest(AUTH(), {
      headers: { 'content-type': 'application/soap+xml' },
      body: Buffer.concat([BOM16BE, utf16be(xml)]),
    });
    expect(ans.status, ans.text).toBe(200);
    expect(ans.text).toMatch(/<Token>[a-f][0-9a-f]{31}<\/Token>/);
  });

  it('takes ISO-8859-1 declared in the XML declaration only, or in the Content-Type only', async () => {
    const latin1 = Buffer.from(joseXml('ISO-8859-1'), 'latin1');
    // The bytes are not UTF-8: "é" is the single byte 0xE9.
    expect(latin1.includes(Buffer.from([0xe9]))).toBe(true);
    const byDeclaration = await rawRequest(AUTH(), {
      headers: { ...soapHeaders('1.1'), 'content-type': 'text/xml' },
      body: latin1,
    });
    expect(byDeclaration.status, byDeclaration.text).toBe(200);
    const byHeader = await rawRequest(`${api.url}/api/1.7/AuthService.xml/GetAccessToken`, {
      headers: { 'content-type': 'application/xml; charset=ISO-8859-1' },
      body: Buffer.from(
        '<GetAccessTokenRequest><Username>josé</Username><Password>contraseña</Password></GetAccessTokenRequest>',
        'latin1',
      ),
    });
    expect(byHeader.status, byHeader.text).toBe(200);
    expect(byHeader.text).toMatch(/<Token>[a-f][0-9a-f]{31}<\/Token>/);
  });

  it('takes a UTF-16 JSON body with a byte order mark', async () => {
    const ans = await rawRequest(`${api.url}/api/1.7/AuthService.json/GetAccessToken`, {
      headers: { 'content-type': 'application/json; charset=utf-16' },
      body: Buffer.concat([BOM16LE, Buffer.from('{"Username":"josé","Password":"contraseña"}', 'utf16le')]),
    });
    expect(ans.status, ans.text).toBe(200);
    expect(JSON.parse(ans.text).Token).toMatch(TOKEN);
  });

  it('refuses a charset no decoder knows with 1002, whatever the bytes', async () => {
    for (const body of [
      Buffer.from(envelope('1.1', op17('alice', ' 00123 '))),
      Buffer.from([0xc3, 0x28, 0xff]),
    ]) {
      const ans = await rawRequest(AUTH(), {
        headers: { ...soapHeaders('1.1'), 'content-type': 'text/xml; charset=x-mac-klingon' },
        body,
      });
      expect(ans.status).toBe(500);
      expect(ans.text).toContain('<TransactionCode xmlns="http://tempuri.org/">1002</TransactionCode>');
      expect(ans.text).toContain(
        'charset &quot;x-mac-klingon&quot; (from the Content-Type) is not supported',
      );
    }
  });

  it.each([
    ['UTF-16 LE', 'utf16le', BOM16LE],
    ['UTF-16 BE', 'utf16be', BOM16BE],
    ['ISO-8859-1', 'latin1', null],
  ] as const)(
    'a node-soap client whose transport sends %s gets a token for a non-ASCII user',
    async (_name, enc, bom) => {
      for (const forceSoap12Headers of [false, true]) {
        const client = await soap.createClientAsync(`${AUTH()}?wsdl`, { forceSoap12Headers });
        const label = enc === 'latin1' ? 'iso-8859-1' : 'utf-16';
        // As a .NET client with RequestEncoding set: node-soap writes the envelope, the transport re-encodes it.
        const transformRequest = [
          (data: string, headers: Record<string, string>) => {
            const xml = data.replace(/^<\?xml[^>]*\?>/, '');
            const text = Buffer.from(xml, enc === 'latin1' ? 'latin1' : 'utf16le');
            const bytes = Buffer.concat([bom ?? Buffer.alloc(0), enc === 'utf16be' ? text.swap16() : text]);
            headers['Content-Type'] = String(headers['Content-Type']).replace(
              /charset=utf-8/i,
              `charset=${label}`,
            );
            headers['Content-Length'] = String(bytes.length);
            return bytes;
          },
        ];
        const [res] = await client.GetAccessTokenAsync(
          { request: { Username: 'josé', Password: 'contraseña' } },
          { transformRequest },
        );
        expect(client.lastRequestHeaders?.['Content-Type']).toMatch(new RegExp(`charset=${label}`));
        expect(res.GetAccessTokenResult).toMatchObject({ Token: expect.stringMatching(TOKEN), IDWeb: 2001 });
      }
    },
  );
});

describe('faulted calls keep their user in the journal (item 6)', () => {
  const addFault = (fault: Record<string, unknown>) =>
    post(`${api.url}/__admin/faults`, JSON.stringify(fault), 'application/json');

  it('a node-soap client that retries through two 503s is journaled three times as alice', async () => {
    await addFault({ variant: 'soap11', kind: 'status', status: 503, count: 2 });
    const client = await soap.createClientAsync(`${AUTH()}?wsdl`);
    const args = { request: { Username: 'alice', Password: ' 00123 ' } };
    let token: string | undefined;
    for (let attempt = 1; attempt <= 3 && !token; attempt++) {
      try {
        token = (await client.GetAccessTokenAsync(args))[0].GetAccessTokenResult.Token;
      } catch (err) {
        expect((err as { response?: { status: number } }).response?.status).toBe(503);
      }
    }
    expect(token).toMatch(TOKEN);
    const calls = await journal('?username=alice&variant=soap11');
    expect(calls.map((c) => [c.outcome, c.httpStatus])).toEqual([
      ['fault', 503],
      ['fault', 503],
      ['ok', 200],
    ]);
  });

  it('raw JSON, XML and SOAP 1.2 calls hit by status, malformed and drop faults are journaled with their user', async () => {
    await addFault({ variant: 'json', kind: 'status', status: 502 });
    await addFault({ variant: 'xml', kind: 'malformed' });
    await addFault({ variant: 'soap12', kind: 'drop' });
    await (
      await post(
        `${api.url}/api/1.7/AuthService.json/GetAccessToken`,
        JSON.stringify({ Username: 'alice', Password: ' 00123 ' }),
        'application/json',
      )
    ).text();
    await (
      await post(
        `${api.url}/api/1.6/FlightService.xml/GetAccessToken?username=old16&password=pw16`,
        undefined,
        null,
      )
    ).text();
    await expect(postEnvelope(AUTH(), '1.2', envelope('1.2', op17('new17', 'pw17')))).rejects.toThrow();
    const calls = await journal('?outcome=fault');
    expect(calls.map((c) => [c.variant, c.username, (c.fault as { kind: string }).kind])).toEqual([
      ['json', 'alice', 'status'],
      ['xml', 'old16', 'malformed'],
      ['soap12', 'new17', 'drop'],
    ]);
  });

  it('journals a faulted call whose body could not be read with username null', async () => {
    await addFault({ variant: 'json', kind: 'status', status: 503 });
    await (
      await post(`${api.url}/api/1.7/AuthService.json/GetAccessToken`, '{"Username":', 'application/json')
    ).text();
    expect((await journal('?outcome=fault')).map((c) => c.username)).toEqual([null]);
  });
});
