import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { EXPIRES_AT, expectApiHeaders, post, startApiServer, TOKEN, USERS } from './helpers/api-server.js';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());

const XML_TYPE = 'application/xml';
const parser = new XMLParser({ ignoreAttributes: false, parseTagValue: false, trimValues: false });
const request = (inner: string) =>
  `<?xml version="1.0" encoding="utf-8"?><GetAccessTokenRequest>${inner}</GetAccessTokenRequest>`;
type User = (typeof USERS)[keyof typeof USERS] | null;

describe('API 1.6 XML: FlightService.xml/GetAccessToken', () => {
  const path = () => `${api.url}/api/1.6/FlightService.xml/GetAccessToken`;

  async function expect16(res: Response, text: string | RegExp, user: User) {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expectApiHeaders(res, '1.6', user);
    const doc = parser.parse(await res.text()) as { string: { '#text': string; '@_xmlns': string } };
    expect(doc.string['@_xmlns']).toBe('http://schemas.microsoft.com/2003/10/Serialization/');
    if (typeof text === 'string') expect(doc.string['#text']).toBe(text);
    else expect(doc.string['#text']).toMatch(text);
  }

  it('answers a token in a serialized <string> for a GetAccessTokenRequest body', async () => {
    const res = await post(
      path(),
      request('<Username>alice</Username><Password> 00123 </Password>'),
      XML_TYPE,
    );
    await expect16(res, TOKEN, USERS.alice);
  });

  it('answers a token for query-string parameters', async () => {
    await expect16(await post(`${path()}?username=old16&password=pw16`, undefined, null), TOKEN, USERS.old16);
  });

  it('answers "1200 - …" for a wrong password and for an unknown user', async () => {
    await expect16(
      await post(path(), request('<Username>alice</Username><Password>00123</Password>'), 'text/xml'),
      '1200 - Invalid username or password.',
      null,
    );
    await expect16(
      await post(path(), request('<Username>zed</Username><Password>x</Password>'), XML_TYPE),
      '1200 - Invalid username or password.',
      null,
    );
  });

  it('issues a token to a user listed only for 1.7 (no enforcement before 1.7)', async () => {
    await expect16(
      await post(path(), request('<Username>new17</Username><Password>pw17</Password>'), XML_TYPE),
      TOKEN,
      USERS.new17,
    );
  });

  it('answers "1100 - …" for a missing Password and for lower-case element names', async () => {
    await expect16(
      await post(path(), request('<Username>alice</Username>'), XML_TYPE),
      '1100 - Missing required field(s): password.',
      null,
    );
    await expect16(
      await post(path(), request('<username>alice</username><password> 00123 </password>'), XML_TYPE),
      /^1100 - .*"username" was sent but field names are case-sensitive: use "Username"/,
      null,
    );
  });

  it('answers "1000 - …" for ill-formed XML', async () => {
    await expect16(
      await post(path(), '<GetAccessTokenRequest><Username>alice</GetAccessTokenRequest>', XML_TYPE),
      /^1000 - The XML is not well-formed/,
      null,
    );
  });
});

describe('API 1.7 XML: AuthService.xml/GetAccessToken', () => {
  const path = () => `${api.url}/api/1.7/AuthService.xml/GetAccessToken`;

  async function expect17(
    res: Response,
    status: number,
    fields: Record<string, string | null | RegExp>,
    user: User,
  ) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expectApiHeaders(res, '1.7', user);
    const doc = parser.parse(await res.text()) as { GetAccessTokenResponse: Record<string, unknown> };
    const root = doc.GetAccessTokenResponse;
    expect(root['@_xmlns']).toBe('http://tempuri.org/');
    const names = Object.keys(root).filter((k) => !k.startsWith('@_'));
    expect(names).toEqual([
      'Token',
      'ExpiresAt',
      'IDWeb',
      'WebDescription',
      'TransactionCode',
      'TransactionMessage',
    ]);
    for (const [name, want] of Object.entries(fields)) {
      const got = root[name];
      if (want === null) expect(got).toEqual({ '@_i:nil': 'true' });
      else if (typeof want === 'string') expect(got).toBe(want);
      else expect(got).toMatch(want);
    }
  }

  it('answers a GetAccessTokenResponse element with the token and ExpiresAt 8 h later', async () => {
    const res = await post(
      path(),
      request('<Username>alice</Username><Password> 00123 </Password>'),
      XML_TYPE,
    );
    await expect17(
      res,
      200,
      {
        Token: TOKEN,
        ExpiresAt: EXPIRES_AT,
        IDWeb: '1001',
        WebDescription: 'Agencia Alfa',
        TransactionCode: null,
        TransactionMessage: null,
      },
      USERS.alice,
    );
  });

  it('takes the same XML in the query-string parameter "request"', async () => {
    const xml = request('<Username>alice</Username><Password> 00123 </Password>');
    const res = await post(`${path()}?request=${encodeURIComponent(xml)}`, undefined, null);
    await expect17(res, 200, { Token: TOKEN, TransactionCode: null }, USERS.alice);
  });

  it('answers TransactionCode 1200 with nil Token for a wrong password and an unknown user', async () => {
    const fields = {
      Token: null,
      ExpiresAt: null,
      IDWeb: null,
      TransactionCode: '1200',
      TransactionMessage: 'Invalid username or password.',
    };
    await expect17(
      await post(path(), request('<Username>alice</Username><Password>bad</Password>'), XML_TYPE),
      200,
      fields,
      null,
    );
    await expect17(
      await post(path(), request('<Username>ghost</Username><Password>bad</Password>'), XML_TYPE),
      200,
      fields,
      null,
    );
  });

  it('answers TransactionCode 1201 for a user not authorized for 1.7', async () => {
    const res = await post(path(), request('<Username>old16</Username><Password>pw16</Password>'), XML_TYPE);
    await expect17(
      res,
      200,
      {
        Token: null,
        IDWeb: '1602',
        TransactionCode: '1201',
        TransactionMessage: /not authorized for API 1\.7/,
      },
      USERS.old16,
    );
  });

  it('answers TransactionCode 1100 for a missing field and for wrong casing', async () => {
    await expect17(
      await post(path(), request('<Password>x</Password>'), XML_TYPE),
      200,
      { TransactionCode: '1100', TransactionMessage: 'Missing required field(s): Username.' },
      null,
    );
    await expect17(
      await post(path(), request('<USERNAME>alice</USERNAME><Password> 00123 </Password>'), XML_TYPE),
      200,
      {
        TransactionCode: '1100',
        TransactionMessage: /"USERNAME" was sent but field names are case-sensitive: use "Username"/,
      },
      null,
    );
  });

  it('answers HTTP 400 with TransactionCode 1000 for a body with the wrong root element', async () => {
    const res = await post(path(), '<Login><Username>alice</Username></Login>', XML_TYPE);
    await expect17(
      res,
      400,
      {
        Token: null,
        TransactionCode: '1000',
        TransactionMessage: 'The root element must be <GetAccessTokenRequest> (got <Login>).',
      },
      null,
    );
  });
});
