/**
 * A known path with a wrong method answers 405 with an Allow header naming the methods the path takes,
 * on every admin route (decision 0021); the provider API's JSON/XML endpoints do the same for
 * GetAccessToken (POST). Paths that are no route stay 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { startApiServer } from './helpers/api-server.js';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(async () => {
  await api.close();
});

interface Problem {
  error: { code: string; category: string; message: string; details: { accepted: string[] } };
}

const WRONG_CANDIDATES = ['PUT', 'PATCH', 'DELETE', 'POST', 'GET'];

describe('a wrong method on an admin route', () => {
  it('answers 405 with Allow for every path of the OpenAPI document, naming the documented methods', async () => {
    const doc = (await (await fetch(`${api.url}/__admin/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const paths = Object.entries(doc.paths);
    expect(paths.length).toBeGreaterThan(15);
    for (const [template, operations] of paths) {
      const path = `/__admin${template.replace(/\{[^}]+\}/g, '1')}`;
      const documented = Object.keys(operations).map((m) => m.toUpperCase());
      const wrong = WRONG_CANDIDATES.find((m) => !documented.includes(m))!;
      const res = await fetch(`${api.url}${path}`, { method: wrong });
      expect(res.status, `${wrong} ${path}`).toBe(405);
      const allow = res.headers.get('allow')!.split(', ');
      const expected = [...documented, ...(documented.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
      expect(allow.sort(), `Allow of ${path}`).toEqual(expected.sort());
      const body = (await res.json()) as Problem;
      expect(body.error.code).toBe('method_not_allowed');
      expect(body.error.message).toContain(`Method ${wrong} is not allowed on ${path}: it takes `);
      for (const m of documented) expect(body.error.message).toContain(m);
    }
  });

  it('names the right method in the message: GET on a PUT/DELETE path, PUT on a GET/POST path', async () => {
    const del = await fetch(`${api.url}/__admin/users/alice`);
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
    expect(((await del.json()) as Problem).error.message).toBe(
      'Method GET is not allowed on /__admin/users/alice: it takes PUT or DELETE. Every admin route and its methods: GET /__admin/openapi.json (docs/admin-api.md).',
    );
    const put = await fetch(`${api.url}/__admin/users`, { method: 'PUT' });
    expect(put.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    expect(((await put.json()) as Problem).error.message).toContain('it takes GET or POST.');
    // The user is still there: the refused DELETE-path GET did nothing.
    const users = (await (await fetch(`${api.url}/__admin/users`)).json()) as {
      users: Array<{ username: string }>;
    };
    expect(users.users.map((u) => u.username)).toContain('alice');
  });

  it('covers health (answered before the rest of the admin API loads) and answers OPTIONS with 204 and Allow', async () => {
    const post = await fetch(`${api.url}/__admin/health`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    const options = await fetch(`${api.url}/__admin/clock/advance`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it('still answers 404 route_not_found for a path that is no admin route, whatever the method', async () => {
    for (const method of ['GET', 'PUT', 'POST']) {
      const res = await fetch(`${api.url}/__admin/nothing-here`, { method });
      expect(res.status).toBe(404);
      expect(((await res.json()) as Problem).error.code).toBe('route_not_found');
    }
  });
});

describe('a wrong method on GetAccessToken (JSON and XML)', () => {
  it('1.7: 405 with Allow: POST; 1.6: its "1000 - …" answer with HTTP 200, and Allow: POST too', async () => {
    const v17 = await fetch(`${api.url}/api/1.7/AuthService.json/GetAccessToken`, { method: 'PUT' });
    expect(v17.status).toBe(405);
    expect(v17.headers.get('allow')).toBe('POST');
    const xml17 = await fetch(`${api.url}/api/1.7/AuthService.xml/GetAccessToken`);
    expect(xml17.status).toBe(405);
    expect(xml17.headers.get('allow')).toBe('POST');
    const v16 = await fetch(`${api.url}/api/1.6/FlightService.json/GetAccessToken`);
    expect(v16.status).toBe(200);
    expect(v16.headers.get('allow')).toBe('POST');
    expect(await v16.json()).toBe('1000 - Method GET is not allowed: GetAccessToken takes POST.');
  });
});
