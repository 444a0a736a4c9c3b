import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator } from '../src/emulator.js';
import type { RunningEmulator } from '../src/server.js';
import { CLOCK_START, post, startApiServer, TOKEN, USERS } from './helpers/api-server.js';

let api: RunningEmulator | undefined;
afterEach(async () => {
  await api?.close();
  api = undefined;
});

const getJson = async <T>(url: string): Promise<T> => (await fetch(url)).json() as Promise<T>;
const token17 = async (url: string, Username = 'alice', Password = ' 00123 ') => {
  const res = await post(
    `${url}/api/1.7/AuthService.json/GetAccessToken`,
    JSON.stringify({ Username, Password }),
    'application/json',
  );
  return (await res.json()) as { Token: string | null; ExpiresAt: string | null };
};
interface Schema {
  $ref?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
}
type Content = { content: { 'application/json': { schema: Schema } } };
interface OpenApi {
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, { responses: Record<string, Content>; requestBody?: Content }>>;
}
interface TokenView {
  token: string;
  username: string;
  version: string;
  issuedAt: string;
  expiresAt: string;
  expired: boolean;
  revoked: boolean;
}

describe('token lifetime on the emulator clock', () => {
  it('sets ExpiresAt to issue time + 8 h and reports the token expired once a manual clock has advanced 8 h', async () => {
    api = await startApiServer();
    await api.emulator.clock.advance({ byMs: 90 * 60 * 1000 });
    const { Token, ExpiresAt } = await token17(api.url);
    expect(ExpiresAt).toBe('2026-04-27T19:30:00Z');
    const before = await getJson<{ tokens: TokenView[] }>(`${api.url}/__admin/tokens`);
    expect(before.tokens).toEqual([
      {
        token: Token,
        username: 'alice',
        version: '1.7',
        issuedAt: '2026-04-27T11:30:00.000Z',
        expiresAt: '2026-04-27T19:30:00.000Z',
        expired: false,
        revoked: false,
      },
    ]);
    await api.emulator.clock.advance({ byMs: 8 * 60 * 60 * 1000 - 1 });
    expect((await getJson<{ tokens: TokenView[] }>(`${api.url}/__admin/tokens`)).tokens[0]?.expired).toBe(
      false,
    );
    await api.emulator.clock.advance({ byMs: 1 });
    expect((await getJson<{ tokens: TokenView[] }>(`${api.url}/__admin/tokens`)).tokens[0]?.expired).toBe(
      true,
    );
  });

  it('revokes a token through DELETE /__admin/tokens/:token and answers 404 for an unknown one', async () => {
    api = await startApiServer();
    const { Token } = await token17(api.url);
    expect((await fetch(`${api.url}/__admin/tokens/${Token}`, { method: 'DELETE' })).status).toBe(204);
    expect((await getJson<{ tokens: TokenView[] }>(`${api.url}/__admin/tokens`)).tokens[0]?.revoked).toBe(
      true,
    );
    const missing = await fetch(`${api.url}/__admin/tokens/nope`, { method: 'DELETE' });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: 'token_not_found', category: 'not_found' } });
  });

  it('issues the same tokens for the same seed, again after a reset', async () => {
    api = await startApiServer({ seed: 99 });
    const first = (await token17(api.url)).Token;
    expect(first).toMatch(TOKEN);
    api.emulator.reset();
    expect((await token17(api.url)).Token).toBe(first);
  });
});

describe('users through the admin API', () => {
  it('adds a user that can then get a token, lists it, and deletes it', async () => {
    api = await startApiServer();
    const user = {
      username: 'dave',
      password: 'pw',
      idWeb: 42,
      webDescription: 'Dave Travel',
      versions: ['1.7'],
    };
    const created = await post(`${api.url}/__admin/users`, JSON.stringify(user), 'application/json');
    expect(created.status).toBe(201);
    const { password: _password, ...withoutPassword } = user;
    expect(await created.json()).toEqual(withoutPassword);
    expect((await token17(api.url, 'dave', 'pw')).Token).toMatch(TOKEN);
    const list = await getJson<{ users: Array<{ username: string }> }>(`${api.url}/__admin/users`);
    expect(list.users.map((u) => u.username)).toEqual(['alice', 'old16', 'new17', 'dave']);
    expect((await fetch(`${api.url}/__admin/users/dave`, { method: 'DELETE' })).status).toBe(204);
    expect((await token17(api.url, 'dave', 'pw')).Token).toBeNull();
    expect((await fetch(`${api.url}/__admin/users/dave`, { method: 'DELETE' })).status).toBe(404);
  });

  it('never answers a password: not on POST, not on GET, not in the OpenAPI answer schemas', async () => {
    api = await startApiServer();
    const secret = 'pw-s3cret-do-not-echo';
    const created = await post(
      `${api.url}/__admin/users`,
      JSON.stringify({ username: 'zoe', password: secret, idWeb: 9, webDescription: 'Z' }),
      'application/json',
    );
    const createdText = await created.text();
    expect(created.status).toBe(201);
    expect(JSON.parse(createdText)).toEqual({
      username: 'zoe',
      idWeb: 9,
      webDescription: 'Z',
      versions: ['1.6', '1.7'],
    });
    expect(createdText).not.toContain(secret);
    const listText = await (await fetch(`${api.url}/__admin/users`)).text();
    expect(listText).not.toContain(secret);
    expect(listText).not.toContain(USERS.old16.password);
    expect(listText).not.toContain('"password"');
    expect((JSON.parse(listText) as { users: unknown[] }).users).toHaveLength(4);
    // The same user again: the conflict names the user, not its password.
    const dup = await post(
      `${api.url}/__admin/users`,
      createdText.replace('}', `,"password":"${secret}"}`),
      'application/json',
    );
    expect(dup.status).toBe(409);
    expect(await dup.text()).not.toContain(secret);

    const doc = await getJson<OpenApi>(`${api.url}/__admin/openapi.json`);
    const schemas = doc.components.schemas;
    expect(Object.keys(schemas.User!.properties!)).not.toContain('password');
    expect(Object.keys(schemas.UserInput!.properties!)).toContain('password');
    const listSchema = doc.paths['/users']!.get!.responses['200']!.content['application/json'].schema;
    expect(listSchema.properties?.users?.items).toEqual({ $ref: '#/components/schemas/User' });
    const addOp = doc.paths['/users']!.post!;
    expect(addOp.responses['201']!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/User',
    });
    expect(addOp.requestBody!.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/UserInput',
    });
  });

  it('defaults versions to both, refuses a duplicate with 409 and a bad user with 400 naming the field', async () => {
    api = await startApiServer();
    const res = await post(
      `${api.url}/__admin/users`,
      JSON.stringify({ username: 'eve', password: 'x', idWeb: 5, webDescription: 'E' }),
      'application/json',
    );
    expect(await res.json()).toMatchObject({ versions: ['1.6', '1.7'] });
    const dup = await post(
      `${api.url}/__admin/users`,
      JSON.stringify({ username: 'eve', password: 'y', idWeb: 5, webDescription: 'E' }),
      'application/json',
    );
    expect(dup.status).toBe(409);
    const bad = await post(
      `${api.url}/__admin/users`,
      JSON.stringify({ username: 'f', password: 'x', idWeb: 'one', webDescription: 'F' }),
      'application/json',
    );
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { code: 'invalid_user', message: expect.stringMatching(/field idWeb/) },
    });
    const badVersion = await post(
      `${api.url}/__admin/users`,
      JSON.stringify({ username: 'g', password: 'x', idWeb: 1, webDescription: 'G', versions: ['2.0'] }),
      'application/json',
    );
    expect(await badVersion.json()).toMatchObject({
      error: { message: expect.stringMatching(/versions\[0\]/) },
    });
  });

  it('keeps users but forgets tokens, the journal and faults on POST-reset (emulator.reset)', async () => {
    api = await startApiServer();
    await token17(api.url);
    await post(
      `${api.url}/__admin/faults`,
      JSON.stringify({ kind: 'status', status: 503, count: 5 }),
      'application/json',
    );
    api.emulator.reset();
    expect((await getJson<{ tokens: unknown[] }>(`${api.url}/__admin/tokens`)).tokens).toEqual([]);
    expect((await getJson<{ requests: unknown[] }>(`${api.url}/__admin/requests`)).requests).toEqual([]);
    expect((await getJson<{ faults: unknown[] }>(`${api.url}/__admin/faults`)).faults).toEqual([]);
    expect((await getJson<{ users: unknown[] }>(`${api.url}/__admin/users`)).users).toHaveLength(3);
  });
});

describe('preloaded users', () => {
  it('fail start-up with a message naming the entry index and the field', () => {
    expect(() =>
      createEmulator(
        { clock: 'manual', clockStart: CLOCK_START, logLevel: 'silent' },
        {},
        {
          users: [
            { username: 'ok', password: 'p', idWeb: 1, webDescription: 'x' },
            { username: 'bad', password: 'p', idWeb: 1, webDescription: 'x', versions: ['1.8'] },
          ],
        },
      ),
    ).toThrow(/^users\[1\]: field versions\[0\]: /);
  });
});
