import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { EXPIRES_AT, expectApiHeaders, post, startApiServer, TOKEN, USERS } from './helpers/api-server.js';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());

const JSON_TYPE = 'application/json';

describe('API 1.6 JSON: FlightService.json/GetAccessToken', () => {
  const path = () => `${api.url}/api/1.6/FlightService.json/GetAccessToken`;

  async function expect16(
    res: Response,
    body: string | RegExp,
    user: (typeof USERS)[keyof typeof USERS] | null,
  ) {
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/json; charset=utf-8');
    expectApiHeaders(res, '1.6', user);
    const parsed = JSON.parse(await res.text());
    expect(typeof parsed).toBe('string');
    if (typeof body === 'string') expect(parsed).toBe(body);
    else expect(parsed).toMatch(body);
    return parsed as string;
  }

  it('answers a token as a JSON string for a lower-case JSON body, keeping a password with spaces and leading zeros intact', async () => {
    const res = await post(path(), JSON.stringify({ username: 'alice', password: ' 00123 ' }), JSON_TYPE);
    const token = await expect16(res, TOKEN, USERS.alice);
    const tokens = (await (await fetch(`${api.url}/__admin/tokens?username=alice`)).json()) as {
      tokens: Array<{ token: string; version: string; expiresAt: string }>;
    };
    expect(tokens.tokens).toContainEqual(
      expect.objectContaining({ token, version: '1.6', expiresAt: '2026-04-27T18:00:00.000Z' }),
    );
  });

  it('never answers a token that a client following the spec would read as an error (200 calls, seeded and not)', async () => {
    // A 1.6 answer is the token or "an error string that begins with a numeric code" (spec
    // "Responses"); docs/getaccesstoken.md tells clients to test the first character.
    const unseeded = await startApiServer({ seed: undefined });
    try {
      for (const server of [api, unseeded]) {
        for (let i = 0; i < 100; i++) {
          const res = await post(
            `${server.url}/api/1.6/FlightService.json/GetAccessToken`,
            JSON.stringify({ username: 'alice', password: ' 00123 ' }),
            JSON_TYPE,
          );
          const answer = JSON.parse(await res.text()) as string;
          expect(/^\d/.test(answer), answer).toBe(false);
          expect(answer).toMatch(TOKEN);
        }
      }
    } finally {
      await unseeded.close();
    }
  });

  it('answers a token for query-string username and password without a body', async () => {
    const res = await post(`${path()}?username=alice&password=%2000123%20`, undefined, null);
    await expect16(res, TOKEN, USERS.alice);
  });

  it('answers "1200 - …" with HTTP 200 for a wrong password', async () => {
    const res = await post(path(), JSON.stringify({ username: 'alice', password: '00123' }), JSON_TYPE);
    await expect16(res, '1200 - Invalid username or password.', null);
  });

  it('answers "1200 - …" for an unknown user, the same as a wrong password', async () => {
    const res = await post(path(), JSON.stringify({ username: 'mallory', password: 'x' }), JSON_TYPE);
    await expect16(res, '1200 - Invalid username or password.', null);
  });

  it('issues a token to a user listed only for 1.7, since version enforcement starts with 1.7, and journals a warning', async () => {
    const res = await post(path(), JSON.stringify({ username: 'new17', password: 'pw17' }), JSON_TYPE);
    await expect16(res, TOKEN, USERS.new17);
    const journal = (await (
      await fetch(`${api.url}/__admin/requests?username=new17&version=1.6`)
    ).json()) as { requests: Array<{ warnings: string[]; outcome: string }> };
    expect(journal.requests.at(-1)).toMatchObject({ outcome: 'ok' });
    expect(journal.requests.at(-1)?.warnings.join()).toMatch(/user_not_listed_for_1\.6/);
  });

  it('answers "1100 - …" naming the missing field', async () => {
    const res = await post(path(), JSON.stringify({ username: 'alice' }), JSON_TYPE);
    await expect16(res, '1100 - Missing required field(s): password.', null);
  });

  it('answers "1100 - …" naming the casing for PascalCase keys, which 1.6 does not take', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'alice', Password: ' 00123 ' }), JSON_TYPE);
    await expect16(
      res,
      /^1100 - Missing required field\(s\): username, password\. "Username" was sent but field names are case-sensitive: use "username"/,
      null,
    );
  });

  it('answers "1000 - …" with HTTP 200 for a malformed JSON body', async () => {
    const res = await post(path(), '{"username":"alice",', JSON_TYPE);
    await expect16(res, /^1000 - The body is not valid JSON/, null);
  });
});

describe.each([
  ['AuthService.json', '/api/1.7/AuthService.json/GetAccessToken'],
  ['the FlightService.json alias', '/api/1.7/FlightService.json/GetAccessToken'],
])('API 1.7 JSON: %s', (_name, route) => {
  const path = () => `${api.url}${route}`;

  async function expect17(
    res: Response,
    status: number,
    fields: Record<string, unknown>,
    user: (typeof USERS)[keyof typeof USERS] | null,
  ) {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expectApiHeaders(res, '1.7', user);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual([
      'Token',
      'ExpiresAt',
      'IDWeb',
      'WebDescription',
      'TransactionCode',
      'TransactionMessage',
    ]);
    expect(body).toMatchObject(fields);
    return body;
  }
  const failed = (code: string, message: string | RegExp) => ({
    Token: null,
    ExpiresAt: null,
    TransactionCode: code,
    TransactionMessage: typeof message === 'string' ? message : expect.stringMatching(message),
  });

  it('answers a GetAccessTokenResponse with Token, ExpiresAt 8 h later, IDWeb and WebDescription', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'alice', Password: ' 00123 ' }), JSON_TYPE);
    const body = await expect17(
      res,
      200,
      {
        ExpiresAt: EXPIRES_AT,
        IDWeb: 1001,
        WebDescription: 'Agencia Alfa',
        TransactionCode: null,
        TransactionMessage: null,
      },
      USERS.alice,
    );
    expect(body.Token).toMatch(TOKEN);
  });

  it('answers TransactionCode 1200 with a null Token for a wrong password', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'alice', Password: 'wrong' }), JSON_TYPE);
    await expect17(
      res,
      200,
      { ...failed('1200', 'Invalid username or password.'), IDWeb: null, WebDescription: null },
      null,
    );
  });

  it('answers TransactionCode 1200 for an unknown user', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'nobody', Password: 'x' }), JSON_TYPE);
    await expect17(res, 200, failed('1200', 'Invalid username or password.'), null);
  });

  it('answers TransactionCode 1201 for a user not authorized for 1.7, naming the account manager', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'old16', Password: 'pw16' }), JSON_TYPE);
    await expect17(
      res,
      200,
      {
        ...failed('1201', /not authorized for API 1\.7 \(authorized: 1\.6\).*account manager/),
        IDWeb: 1602,
        WebDescription: 'Only Sixteen',
      },
      USERS.old16,
    );
  });

  it('answers TransactionCode 1100 naming the missing field', async () => {
    const res = await post(path(), JSON.stringify({ Username: 'alice' }), JSON_TYPE);
    await expect17(res, 200, failed('1100', 'Missing required field(s): Password.'), null);
  });

  it('answers TransactionCode 1100 naming the casing for lower-case keys', async () => {
    const res = await post(path(), JSON.stringify({ username: 'alice', password: ' 00123 ' }), JSON_TYPE);
    await expect17(
      res,
      200,
      failed('1100', /"username" was sent but field names are case-sensitive: use "Username"/),
      null,
    );
  });

  it('answers TransactionCode 1100 and explains that query-string mode is not supported', async () => {
    const res = await post(`${path()}?username=alice&password=x`, undefined, null);
    await expect17(res, 200, failed('1100', /does not accept query-string parameters/), null);
  });

  it('answers HTTP 400 with TransactionCode 1000 for a malformed body', async () => {
    const res = await post(path(), '{"Username": alice}', JSON_TYPE);
    await expect17(res, 400, failed('1000', /^The body is not valid JSON/), null);
  });
});

describe('API 1.7 JSON with --accept-lowercase-keys', () => {
  it('accepts lower-case keys and journals a non-canonical-casing warning', async () => {
    const lenient = await startApiServer({ acceptLowercaseKeys: true });
    try {
      const res = await post(
        `${lenient.url}/api/1.7/AuthService.json/GetAccessToken`,
        JSON.stringify({ username: 'alice', password: ' 00123 ' }),
        JSON_TYPE,
      );
      expect(res.status).toBe(200);
      expect(((await res.json()) as { Token: string }).Token).toMatch(TOKEN);
      const journal = (await (await fetch(`${lenient.url}/__admin/requests`)).json()) as {
        requests: Array<{ warnings: string[] }>;
      };
      expect(journal.requests[0]?.warnings).toEqual([
        'non_canonical_casing: "username" accepted as "Username"',
        'non_canonical_casing: "password" accepted as "Password"',
      ]);
    } finally {
      await lenient.close();
    }
  });
});

describe('service paths', () => {
  it('match case-insensitively, as IIS does', async () => {
    const res = await post(
      `${api.url}/API/1.7/authservice.JSON/getaccesstoken`,
      JSON.stringify({ Username: 'alice', Password: ' 00123 ' }),
      JSON_TYPE,
    );
    expect(res.status).toBe(200);
    expectApiHeaders(res, '1.7', USERS.alice);
  });
});
