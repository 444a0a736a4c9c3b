import { XMLParser } from 'fast-xml-parser';
import * as soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { EXPIRES_AT, expectApiHeaders, startApiServer, TOKEN, USERS } from './helpers/api-server.js';
import {
  ACTION,
  envelope,
  op16,
  op17,
  postEnvelope,
  SOAP11_NS,
  SOAP12_NS,
  soapHeaders,
} from './helpers/soap-envelopes.js';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());

// biome-ignore lint/suspicious/noExplicitAny: a parsed envelope is navigated freely by the assertions
type Tree = any;

const parser = new XMLParser({
  ignoreAttributes: false,
  parseTagValue: false,
  trimValues: false,
  removeNSPrefix: false,
});
const FLIGHT = () => `${api.url}/api/1.6/FlightService.asmx`;
const AUTH = () => `${api.url}/api/1.7/AuthService.asmx`;
type Soap = '1.1' | '1.2';
const CONTENT_TYPE = {
  '1.1': 'text/xml; charset=utf-8',
  '1.2': 'application/soap+xml; charset=utf-8',
} as const;
const NS = { '1.1': SOAP11_NS, '1.2': SOAP12_NS } as const;

/** Parses an answer envelope, asserting its namespace, and returns the Body's children. */
async function body(res: Response, v: Soap): Promise<Record<string, Tree>> {
  expect(res.headers.get('content-type')).toBe(CONTENT_TYPE[v]);
  const doc = parser.parse(await res.text()) as Record<string, Tree>;
  const env = doc['soap:Envelope'];
  expect(env['@_xmlns:soap']).toBe(NS[v]);
  return env['soap:Body'];
}

async function result(res: Response, v: Soap): Promise<Tree> {
  expect(res.status).toBe(200);
  const b = await body(res, v);
  expect(b.GetAccessTokenResponse['@_xmlns']).toBe('http://tempuri.org/');
  return b.GetAccessTokenResponse.GetAccessTokenResult;
}

async function fault(
  res: Response,
  v: Soap,
): Promise<{ code: string; reason: string; transactionCode?: string }> {
  expect(res.status).toBe(500);
  const f = (await body(res, v))['soap:Fault'];
  if (v === '1.1')
    return {
      code: f.faultcode,
      reason: f.faultstring,
      transactionCode: f.detail?.TransactionCode?.['#text'],
    };
  return {
    code: f['soap:Code']['soap:Value'],
    reason: f['soap:Reason']['soap:Text']['#text'],
    transactionCode: f['soap:Detail']?.TransactionCode?.['#text'],
  };
}

describe.each(['1.1', '1.2'] as const)('node-soap clients over SOAP %s', (v) => {
  const options = v === '1.2' ? { forceSoap12Headers: true } : {};

  it('get a 1.6 token from a client built from FlightService.asmx?wsdl', async () => {
    const client = await soap.createClientAsync(`${FLIGHT()}?wsdl`, options);
    const [res] = await client.GetAccessTokenAsync({ username: 'alice', password: ' 00123 ' });
    expect(res.GetAccessTokenResult).toMatch(TOKEN);
    expect(client.lastResponseHeaders?.['x-api-version']).toBe('1.6.0.0');
    expect(client.lastResponseHeaders?.['x-api-user-idweb']).toBe('1001');
  });

  it('get a 1.7 GetAccessTokenResponse from a client built from AuthService.asmx?wsdl', async () => {
    const client = await soap.createClientAsync(`${AUTH()}?wsdl`, options);
    const [res] = await client.GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } });
    expect(res.GetAccessTokenResult.Token).toMatch(TOKEN);
    expect(new Date(res.GetAccessTokenResult.ExpiresAt).toISOString()).toBe('2026-04-27T18:00:00.000Z');
    expect(res.GetAccessTokenResult).toMatchObject({ IDWeb: 1001, WebDescription: 'Agencia Alfa' });
    expect(client.lastResponseHeaders?.['x-api-user-webdescription']).toBe('Agencia Alfa');
  });
});

describe('the compact SOAP 1.1 envelope a .NET proxy writes on the wire (read without the XML parser)', () => {
  const compact = (username: string, password: string) =>
    '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ' +
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema">' +
    `<soap:Body>${op17(username, password)}</soap:Body></soap:Envelope>`;

  it('answers as the indented envelope does: a token, 1201, 1200, and the journal names the user', async () => {
    for (const [username, password, user] of [
      ['new17', 'pw17', USERS.new17],
      ['old16', 'pw16', USERS.old16],
      ['new17', 'wrong', null],
    ] as const) {
      const quick = await postEnvelope(AUTH(), '1.1', compact(username, password));
      const full = await postEnvelope(AUTH(), '1.1', envelope('1.1', op17(username, password)));
      expectApiHeaders(quick, '1.7', user);
      const [a, b] = [await result(quick, '1.1'), await result(full, '1.1')];
      if (a.Token !== undefined) {
        expect(a.Token).toMatch(TOKEN);
        expect({ ...a, Token: 'T' }).toEqual({ ...b, Token: 'T' });
      } else expect(a).toEqual(b);
    }
    const journal = (await (await fetch(`${api.url}/__admin/requests?variant=soap11`)).json()) as {
      requests: Array<{ username: string | null }>;
    };
    expect(journal.requests.slice(-6).map((e) => e.username)).toEqual([
      'new17',
      'new17',
      'old16',
      'old16',
      'new17',
      'new17',
    ]);
  });
});

describe.each(['1.1', '1.2'] as const)('raw ASP.NET-style envelopes over SOAP %s', (v) => {
  it('1.6: a token string in GetAccessTokenResult for good credentials', async () => {
    const res = await postEnvelope(FLIGHT(), v, envelope(v, op16('alice', ' 00123 ')));
    expectApiHeaders(res, '1.6', USERS.alice);
    expect(await result(res, v)).toMatch(TOKEN);
  });

  it('1.6: "1200 - …" for a wrong password or unknown user, "1100 - …" for missing or mis-cased fields', async () => {
    for (const [op, want] of [
      [op16('alice', 'nope'), '1200 - Invalid username or password.'],
      [op16('ghost', 'x'), '1200 - Invalid username or password.'],
      [
        '<GetAccessToken xmlns="http://tempuri.org/"><username>alice</username></GetAccessToken>',
        '1100 - Missing required field(s): password.',
      ],
      [
        '<GetAccessToken xmlns="http://tempuri.org/"><Username>alice</Username><Password>x</Password></GetAccessToken>',
        /^1100 - .*"Username" was sent but field names are case-sensitive: use "username"/,
      ],
    ] as const) {
      const res = await postEnvelope(FLIGHT(), v, envelope(v, op));
      expectApiHeaders(res, '1.6', null);
      const text = await result(res, v);
      if (typeof want === 'string') expect(text).toBe(want);
      else expect(text).toMatch(want);
    }
  });

  it('1.6: a token for a user listed only for 1.7 (no enforcement before 1.7)', async () => {
    const res = await postEnvelope(FLIGHT(), v, envelope(v, op16('new17', 'pw17')));
    expectApiHeaders(res, '1.6', USERS.new17);
    expect(await result(res, v)).toMatch(TOKEN);
  });

  it('1.7: a GetAccessTokenResponse with Token and ExpiresAt, null fields omitted', async () => {
    const res = await postEnvelope(AUTH(), v, envelope(v, op17('alice', ' 00123 ')));
    expectApiHeaders(res, '1.7', USERS.alice);
    const r = await result(res, v);
    expect(Object.keys(r)).toEqual(['Token', 'ExpiresAt', 'IDWeb', 'WebDescription']);
    expect(r).toMatchObject({ ExpiresAt: EXPIRES_AT, IDWeb: '1001', WebDescription: 'Agencia Alfa' });
    expect(r.Token).toMatch(TOKEN);
  });

  it('1.7: TransactionCode 1200, 1201 and 1100 as answers, not faults', async () => {
    for (const [op, code, user] of [
      [op17('alice', 'bad'), '1200', null],
      [op17('nobody', 'bad'), '1200', null],
      [op17('old16', 'pw16'), '1201', USERS.old16],
      [
        '<GetAccessToken xmlns="http://tempuri.org/"><request><Username>alice</Username></request></GetAccessToken>',
        '1100',
        null,
      ],
      [op17('alice', ' 00123 ').replaceAll('Username', 'username'), '1100', null],
      [
        '<GetAccessToken xmlns="http://tempuri.org/"><Request><Username>a</Username></Request></GetAccessToken>',
        '1100',
        null,
      ],
    ] as const) {
      const res = await postEnvelope(AUTH(), v, envelope(v, op));
      expectApiHeaders(res, '1.7', user);
      const r = await result(res, v);
      expect(r.TransactionCode).toBe(code);
      expect(r.Token).toBeUndefined();
      expect(r.TransactionMessage.length).toBeGreaterThan(10);
    }
  });

  it('a malformed envelope is a 400 with an empty body, as ASMX answers XML it cannot read', async () => {
    for (const url of [FLIGHT(), AUTH()]) {
      const res = await postEnvelope(
        url,
        v,
        envelope(v, '<GetAccessToken xmlns="http://tempuri.org/"><request>'),
      );
      expect(res.status).toBe(400);
      expect(await res.text()).toBe('');
      expectApiHeaders(res, url === FLIGHT() ? '1.6' : '1.7', null);
    }
  });

  it('an unknown operation is a client Fault naming the supported one', async () => {
    const res = await postEnvelope(AUTH(), v, envelope(v, '<Logout xmlns="http://tempuri.org/"/>'));
    const f = await fault(res, v);
    expect(f.code).toBe(v === '1.1' ? 'soap:Client' : 'soap:Sender');
    expect(f.reason).toBe(
      'Server did not recognize the operation {http://tempuri.org/}Logout. Supported: GetAccessToken in namespace http://tempuri.org/.',
    );
  });

  it(
    v === '1.1'
      ? 'a SOAP 1.2 envelope sent as text/xml is read and answered as SOAP 1.2'
      : 'a SOAP 1.1 envelope sent as application/soap+xml is a 415 with an empty body',
    async () => {
      const other = v === '1.1' ? '1.2' : '1.1';
      const res = await postEnvelope(AUTH(), v, envelope(other, op17('alice', ' 00123 ')));
      if (v === '1.1') {
        expect((await result(res, '1.2')).Token).toMatch(TOKEN);
      } else {
        expect(res.status).toBe(415);
        expect(await res.text()).toBe('');
      }
    },
  );

  it('an envelope in neither SOAP namespace is a VersionMismatch Fault in SOAP 1.1', async () => {
    const res = await postEnvelope(AUTH(), v, envelope(v, op17('alice', ' 00123 ')).replace(NS[v], 'urn:x'));
    expect((await fault(res, '1.1')).code).toBe('soap:VersionMismatch');
  });
});

describe('SOAP dispatch as ASP.NET does it', () => {
  it('accepts SOAPAction with or without quotes, routes on the Body without one, and refuses a different one', async () => {
    const xml = envelope('1.1', op17('alice', ' 00123 '));
    const unquoted = await postEnvelope(AUTH(), '1.1', xml, {
      'content-type': 'text/xml; charset=utf-8',
      SOAPAction: ACTION,
    });
    expect(unquoted.status).toBe(200);
    const missing = await postEnvelope(AUTH(), '1.1', xml, { 'content-type': 'text/xml; charset=utf-8' });
    expect((await result(missing, '1.1')).Token).toMatch(TOKEN);
    const other = await postEnvelope(AUTH(), '1.1', xml, {
      'content-type': 'text/xml',
      SOAPAction: '"http://tempuri.org/Other"',
    });
    expect(await fault(other, '1.1')).toMatchObject({
      code: 'soap:Client',
      reason: expect.stringMatching(
        /^Server did not recognize the value of HTTP Header SOAPAction: "http:\/\/tempuri.org\/Other"\. Send SOAPAction: "http:\/\/tempuri.org\/GetAccessToken"/,
      ),
    });
  });

  it('takes SOAP 1.2 with its action, without one, or with one that names no operation (routed on the Body)', async () => {
    const xml = envelope('1.2', op17('alice', ' 00123 '));
    for (const type of [
      `application/soap+xml; charset=utf-8; action="${ACTION}"`,
      'application/soap+xml; charset=utf-8',
      'application/soap+xml; action="urn:x"',
    ]) {
      const res = await postEnvelope(AUTH(), '1.2', xml, { 'content-type': type });
      expect((await result(res, '1.2')).Token, type).toMatch(TOKEN);
    }
  });

  it('matches service paths and ?WSDL case-insensitively', async () => {
    const res = await postEnvelope(
      `${api.url}/api/1.6/flightservice.ASMX`,
      '1.1',
      envelope('1.1', op16('alice', ' 00123 ')),
      soapHeaders('1.1'),
    );
    expect(await result(res, '1.1')).toMatch(TOKEN);
    const wsdl = await fetch(`${api.url}/API/1.7/authservice.asmx?WSDL`);
    expect(wsdl.status).toBe(200);
    expect(wsdl.headers.get('content-type')).toBe('text/xml; charset=utf-8');
    const text = await wsdl.text();
    expect(text).toContain('targetNamespace="http://tempuri.org/"');
    expect(text).toContain('soapAction="http://tempuri.org/GetAccessToken"');
    expect(text).toContain(`<soap12:address location="${api.url}/API/1.7/authservice.asmx"/>`);
  });

  it('answers GET on the service with a page that links the WSDL', async () => {
    const res = await fetch(FLIGHT());
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toContain(`${FLIGHT()}?wsdl`);
  });
});
