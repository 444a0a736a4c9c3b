/**
 * The admin API is declared once, in the route table (src/admin/contract/routes.ts, decision 0045):
 * every operation there has an AdminClient method of its name and a row in docs/admin-api.md, and the
 * client methods added with the table reach their routes on a running emulator.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RouteDeclaration } from '../src/admin/contract/route.js';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { AdminApiError, AdminClient } from '../src/client/index.js';
import { refuse } from '../src/model/refusal.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';

const routes = Object.entries(ADMIN_ROUTES) as Array<[string, RouteDeclaration]>;

/** Operations a table of the docs lists, as `GET /credentials/:id` (first cell, backticked). */
function documentedOperations(): Set<string> {
  const doc = readFileSync(new URL('../docs/admin-api.md', import.meta.url), 'utf8');
  const found = new Set<string>();
  for (const line of doc.split('\n')) {
    if (!line.startsWith('| `')) continue;
    const firstCell = line.split(' | ')[0]!;
    for (const [, method, path] of firstCell.matchAll(/`(GET|POST|DELETE|PUT|PATCH) ([^`]+)`/g))
      found.add(`${method} ${path!.replace(/^\/__admin/, '')}`);
  }
  return found;
}

describe('the admin route table', () => {
  it('has an AdminClient method named after every operation, unless it says why not', () => {
    const client = new AdminClient('http://127.0.0.1:9');
    const missing = routes
      .filter(([name, r]) => r.noClient === undefined && typeof (client as never)[name] !== 'function')
      .map(([name, r]) => `${name} (${r.method.toUpperCase()} ${r.path})`);
    expect(missing, 'add a method of this name to src/client/client.ts').toEqual([]);
    const exempt = routes.filter(([, r]) => r.noClient !== undefined).map(([name]) => name);
    expect(exempt.sort()).toEqual(['getNotificationBody', 'stream', 'ui', 'uiFile']);
  });

  it('has a row in docs/admin-api.md for every operation', () => {
    const documented = documentedOperations();
    const undocumented = routes
      .map(([, r]) => `${r.method.toUpperCase()} ${r.path}`)
      .filter((op) => !documented.has(op));
    expect(undocumented, 'add a row to a table of docs/admin-api.md').toEqual([]);
  });

  it('declares each method and path once', () => {
    const keys = routes.map(([, r]) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('the client methods the table brought', () => {
  let running: RunningEmulator;
  let client: AdminClient;
  beforeAll(async () => {
    running = await startServer({ port: 0, clock: 'manual', logLevel: 'silent', allowHttp: true });
    client = new AdminClient(running.url);
  });
  afterAll(() => running.close());

  it('retries a pending notification now, lists the batches, and reaches verify and the document', async () => {
    // Port 9 on loopback refuses: the first attempt fails and the notification stays pending.
    await client.addCredential({ id: 'c', apiKey: 'k', url: 'http://127.0.0.1:9/refused' });
    const event = await client.emitEvent({ type: 'Issue' });
    const id = event.notifications[0]!.id;
    await client.waitSettled({}, WAIT_DEADLINE_MS);
    const retried = await client.retryNotification(id);
    expect(retried.attempt).toMatchObject({ number: 2, trigger: 'manual', outcome: 'connect_refused' });
    expect(retried.notification).toMatchObject({ id, state: 'pending', attemptCount: 2 });

    expect(await client.listBatches()).toEqual([]);
    const batch = await client.runRedelivery();
    expect((await client.listBatches()).map((b) => b.at)).toEqual([batch.at]);

    const refused = await client.verify({ receiver: 'not a url' } as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AdminApiError);
    expect(refused).toMatchObject({ status: 400, request: 'POST /__admin/verify' });

    const doc = await client.openApi();
    expect(Object.keys(doc.paths as object)).toContain('/notifications/{id}/retry');
  });

  it('sends the headers it was given with every request', async () => {
    const seen: Headers[] = [];
    const recording = new AdminClient(running.url, {
      headers: { 'x-trace': 't-1' },
      fetch: (url, init) => {
        seen.push(new Headers(init?.headers));
        return fetch(url, init);
      },
    });
    await recording.addUser({
      username: 'h',
      password: 'p',
      idWeb: 1,
      webDescription: 'H',
      versions: ['1.7'],
    });
    await recording.listUsers();
    expect(seen.map((h) => h.get('x-trace'))).toEqual(['t-1', 't-1']);
    expect(seen[0]!.get('content-type')).toBe('application/json');
  });
});

/**
 * mount() reads path parameters and query strings through the declared schemas (decision 0115): the
 * table is the only parser, so what the OpenAPI document says is what the server accepts.
 */
describe('path parameters and query strings, read from the declarations', () => {
  let running: RunningEmulator;
  const get = async (path: string) => {
    const res = await fetch(`${running.url}/__admin${path}`);
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
  };
  beforeAll(async () => {
    running = await startServer({ port: 0, clock: 'manual', logLevel: 'silent', allowHttp: true });
  });
  afterAll(() => running.close());

  it('lists 400 in the document for every route that declares params or a query', async () => {
    const doc = (await (await fetch(`${running.url}/__admin/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>;
    };
    const byName = new Map(
      Object.values(doc.paths).flatMap((ops) =>
        Object.values(ops).map((op) => [op.operationId, op] as const),
      ),
    );
    const missing = routes
      .filter(([, r]) => r.params !== undefined || r.query !== undefined)
      .filter(([name]) => byName.get(name)?.responses['400'] === undefined)
      .map(([name]) => name);
    expect(missing, 'add 400 to the errors of these routes').toEqual([]);
  });

  it.each([
    ['/reservations/0', 'invalid_parameter', 'bookingId'],
    ['/reservations/1e3', 'invalid_parameter', 'bookingId'],
    ['/reservations/abc', 'invalid_parameter', 'bookingId'],
    ['/notifications?bookingId=0x10', 'invalid_query', 'bookingId'],
    ['/notifications?bookingId=-4', 'invalid_query', 'bookingId'],
    ['/notifications?wait=settled&timeoutMs=-1', 'invalid_query', 'timeoutMs'],
    ['/notifications?wait=settled&timeoutMs=300001', 'invalid_query', 'timeoutMs'],
    ['/notifications?wait=soon', 'invalid_query', 'wait'],
    ['/notifications?attempts=6', 'invalid_query', 'attempts'],
    ['/notifications/export?format=csv', 'invalid_query', 'format'],
    ['/requests?version=2.0', 'invalid_query', 'version'],
    ['/requests?variant=yaml', 'invalid_query', 'variant'],
  ])('GET %s answers 400 %s naming %s', async (path, code, name) => {
    const { status, body } = await get(path);
    expect(status).toBe(400);
    expect(body.error).toMatchObject({ code, details: { path: name } });
    expect(body.error!.message).toMatch(new RegExp(`^${name}[: ]`));
  });

  it('hands the handlers numbers where the declaration takes numbers', async () => {
    expect((await get('/notifications?bookingId=7&attempts=0&wait=settled&timeoutMs=0')).status).toBe(200);
    expect(await get('/reservations/7')).toMatchObject({
      status: 404,
      body: { error: { code: 'reservation_not_found' } },
    });
    expect((await get('/requests?version=1.7&variant=json')).status).toBe(200);
  });

  it('filters the list by part of a BookingID alone (booking=)', async () => {
    const client = new AdminClient(running.url);
    await client.addCredential({ id: 'b', apiKey: 'k', url: 'http://127.0.0.1:9/refused' });
    const first = await client.emitEvent({ type: 'Issue' });
    await client.emitEvent({ type: 'Issue' });
    const bookingId = first.reservations[0]!.bookingId;
    const { body } = (await get(`/notifications?booking=${bookingId}`)) as unknown as {
      body: { notifications: Array<{ bookingId: number }> };
    };
    expect(body.notifications.map((n) => n.bookingId)).toEqual([bookingId]);
  });
});

/**
 * mount() reads the JSON body through the declared schema too (decision 0103): for every route that
 * declares a body, a body that schema refuses is a 400 with the route's own code, worded by the
 * body's domain, before the handler runs; never a 500. Generated from the table: a new route with a
 * body is covered as it is declared.
 */
describe('request bodies, read from the declarations', () => {
  let running: RunningEmulator;
  const withBody = routes.filter(([, r]) => r.body !== undefined);
  /** Bodies no declared schema of the table takes as a whole; each route gets the ones its own refuses. */
  const refusable: unknown[] = [42, 'text', [], null, { '~notAMember': 1 }, {}];
  const send = async (r: RouteDeclaration, body: unknown) => {
    const path = r.path.replace(/:[A-Za-z]+/g, '1');
    const res = await fetch(`${running.url}/__admin${path}`, {
      method: r.method.toUpperCase(),
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { error?: { code: string; message: string } } };
  };
  beforeAll(async () => {
    running = await startServer({ port: 0, clock: 'manual', logLevel: 'silent', allowHttp: true });
  });
  afterAll(() => running.close());

  it('gives every route with a body its own refusal code and lists 400 for it', () => {
    const missing = withBody
      .filter(([, r]) => r.bodyError === undefined || !r.errors?.includes(400))
      .map(([name]) => name);
    expect(missing, 'declare bodyError and 400 for these routes').toEqual([]);
    expect(withBody.length).toBeGreaterThanOrEqual(13);
  });

  it.each(withBody)('%s: a body its schema refuses is a 400 with its code, never a 500', async (_name, r) => {
    const refused = refusable.filter((body) => !r.body!.safeParse(body).success);
    expect(refused.length).toBeGreaterThanOrEqual(4);
    for (const body of refused) {
      const answer = await send(r, body);
      expect(answer.status, `${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`).toBe(400);
      const expected = refuse(r.bodyError!, r.body!, r.body!.safeParse(body).error!);
      expect(answer.body.error).toMatchObject({ code: r.bodyError!.code, message: expected.message });
    }
  });

  it('names the closest member for a misspelt one, and reads a body that is not JSON as invalid_json', async () => {
    const misspelt = await send(ADMIN_ROUTES.addUser, {
      usrname: 'ana',
      password: 'p',
      idWeb: 1,
      webDescription: 'A',
    });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.error).toMatchObject({ code: 'invalid_user' });
    expect(misspelt.body.error!.message).toContain('unknown key "usrname" (did you mean "username"?)');
    const res = await fetch(`${running.url}/__admin/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"kind":',
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_json');
  });
});
