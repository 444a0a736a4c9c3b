import * as soap from 'soap';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../src/server.js';
import { post, startApiServer, TOKEN } from './helpers/api-server.js';

let api: RunningEmulator;
beforeAll(async () => {
  api = await startApiServer();
});
afterAll(() => api.close());
beforeEach(() => api.emulator.reset());

const addFault = async (fault: Record<string, unknown>) => {
  const res = await post(`${api.url}/__admin/faults`, JSON.stringify(fault), 'application/json');
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const call17 = (signal?: AbortSignal) =>
  fetch(`${api.url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'alice', Password: ' 00123 ' }),
    ...(signal ? { signal } : {}),
  });
const expectToken = async (res: Response) => {
  expect(res.status).toBe(200);
  expect(((await res.json()) as { Token: string }).Token).toMatch(TOKEN);
};

describe('fault injection seen by a real client', () => {
  it('delay: a client with a shorter timeout gives up; the next call is answered at once', async () => {
    const { status, body } = await addFault({
      version: '1.7',
      variant: 'json',
      kind: 'delay',
      delayMs: 1500,
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ id: 'f-1', kind: 'delay', delayMs: 1500, remaining: 1, matched: 0 });
    await expect(call17(AbortSignal.timeout(200))).rejects.toMatchObject({ name: 'TimeoutError' });
    await expectToken(await call17());
  });

  it('status: the next two calls answer HTTP 503 with the X-API-Version header, the third a token', async () => {
    await addFault({ kind: 'status', status: 503, count: 2 });
    for (let i = 0; i < 2; i++) {
      const res = await call17();
      expect(res.status).toBe(503);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.headers.get('x-api-version')).toBe('1.7.0.0');
      await res.text();
    }
    await expectToken(await call17());
  });

  it('malformed: the client gets HTTP 200 with a body its JSON parser rejects', async () => {
    await addFault({ version: '1.7', kind: 'malformed' });
    const res = await call17();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    await expect(res.json()).rejects.toThrow(SyntaxError);
  });

  it('drop: the connection closes without an answer', async () => {
    await addFault({ kind: 'drop' });
    await expect(call17()).rejects.toThrow(/fetch failed/);
    await expectToken(await call17());
  });

  it('applies only to the version and variant it names', async () => {
    await addFault({ version: '1.6', variant: 'xml', kind: 'status', status: 500 });
    await expectToken(await call17());
    const res = await post(
      `${api.url}/api/1.6/FlightService.xml/GetAccessToken?username=alice&password=%2000123%20`,
      undefined,
      null,
    );
    expect(res.status).toBe(500);
  });

  it('fraction 1 affects every call until the rule is deleted', async () => {
    const { body } = await addFault({ variant: 'json', kind: 'status', status: 502, fraction: 1 });
    for (let i = 0; i < 3; i++) expect((await call17()).status).toBe(502);
    const list = (await (await fetch(`${api.url}/__admin/faults`)).json()) as {
      faults: Array<{ matched: number; remaining: null }>;
    };
    expect(list.faults).toEqual([expect.objectContaining({ matched: 3, remaining: null })]);
    expect((await fetch(`${api.url}/__admin/faults/${body.id}`, { method: 'DELETE' })).status).toBe(204);
    await expectToken(await call17());
  });

  it('a node-soap client sees the SOAP 1.2 drop and the SOAP 1.1 HTTP 500', async () => {
    const client = await soap.createClientAsync(`${api.url}/api/1.7/AuthService.asmx?wsdl`, {
      forceSoap12Headers: true,
    });
    await addFault({ variant: 'soap12', kind: 'drop' });
    await expect(
      client.GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } }),
    ).rejects.toThrow(/socket hang up|ECONNRESET/);
    const [ok] = await client.GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } });
    expect(ok.GetAccessTokenResult.Token).toMatch(TOKEN);
    const client11 = await soap.createClientAsync(`${api.url}/api/1.7/AuthService.asmx?wsdl`);
    await addFault({ variant: 'soap', kind: 'status', status: 500 });
    await expect(
      client11.GetAccessTokenAsync({ request: { Username: 'alice', Password: ' 00123 ' } }),
    ).rejects.toMatchObject({ response: { status: 500 } });
  });

  it('journals faulted calls with the fault id and kind', async () => {
    await addFault({ kind: 'status', status: 503 });
    await (await call17()).text();
    const { requests } = (await (await fetch(`${api.url}/__admin/requests?outcome=fault`)).json()) as {
      requests: unknown[];
    };
    expect(requests).toEqual([
      expect.objectContaining({
        version: '1.7',
        variant: 'json',
        outcome: 'fault',
        httpStatus: 503,
        fault: { id: expect.stringMatching(/^f-/), kind: 'status' },
      }),
    ]);
  });

  it('refuses a fault without its parameter, naming the field', async () => {
    const { status, body } = await addFault({ kind: 'delay' });
    expect(status).toBe(400);
    expect(body).toMatchObject({
      error: { code: 'invalid_fault', message: 'Fault field delayMs: required for kind "delay".' },
    });
    expect((await addFault({ kind: 'status', status: 418 })).status).toBe(400);
  });
});

describe('the journal', () => {
  it('filters by version, variant, username and outcome', async () => {
    await call17();
    await post(
      `${api.url}/api/1.6/FlightService.json/GetAccessToken?username=old16&password=bad`,
      undefined,
      null,
    );
    const get = async (q: string) =>
      (
        (await (await fetch(`${api.url}/__admin/requests?${q}`)).json()) as {
          requests: Array<Record<string, unknown>>;
        }
      ).requests;
    expect(await get('')).toHaveLength(2);
    expect(await get('version=1.6')).toEqual([
      expect.objectContaining({
        id: 'r-000002',
        version: '1.6',
        variant: 'json',
        path: '/api/1.6/FlightService.json/GetAccessToken',
        username: 'old16',
        outcome: 'invalid_credentials',
        transactionCode: '1200',
        httpStatus: 200,
        at: '2026-04-27T10:00:00.000Z',
      }),
    ]);
    expect(await get('username=alice&outcome=ok')).toHaveLength(1);
    expect(await get('variant=xml')).toEqual([]);
  });
});
