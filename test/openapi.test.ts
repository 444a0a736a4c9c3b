import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminApp } from '../src/admin/index.js';
import { createEmulator } from '../src/emulator.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';

type Json = Record<string, unknown>;
type Doc = {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json> };
};

// ajv-formats is CommonJS with a `default` export: under NodeNext the import is the module object.
const addFormats = addFormatsModule.default;

let running: RunningEmulator;
let doc: Doc;
let ajv: Ajv2020;

beforeAll(async () => {
  running = await startServer({
    port: 0,
    clock: 'manual',
    clockStart: '2026-04-27T10:00:00Z',
    logLevel: 'silent',
  });
  const res = await fetch(`${running.url}/__admin/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
});
afterAll(() => running.close());

/** Validates a value against a documented component, returning ajv's errors (empty when valid). */
function violations(component: string, value: unknown): unknown[] {
  const validate = ajv.compile({ $ref: `openapi#/components/schemas/${component}` });
  return validate(value) ? [] : (validate.errors ?? []);
}

const SAMPLE_PARAMS: Record<string, string> = {
  id: 'no-such-id',
  bookingId: '999999',
  username: 'nobody',
  token: 'no-such-token',
  fingerprint: 'AB:CD:EF',
};

describe('GET /__admin/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the admin API served under /__admin', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: '/__admin' }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/health',
        '/credentials',
        '/events',
        '/notifications',
        '/clock/advance',
        '/users',
        '/faults',
      ]),
    );
  });

  it('has component schemas that all compile as JSON Schema 2020-12 and every $ref resolves', () => {
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.compile({ $ref: `openapi#/components/schemas/${name}` }), name).not.toThrow();
    }
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/(\w+)"/g)].map(
      (m) => m[1]!,
    );
    expect(refs.length).toBeGreaterThan(20);
    for (const name of refs) expect(doc.components.schemas, name).toHaveProperty(name);
  });

  it('documents every route the admin app serves, and nothing it does not', () => {
    const served = adminApp(createEmulator({ logLevel: 'silent' }))
      .routes.filter((r) => r.method !== 'ALL')
      .map((r) => `${r.method.toLowerCase()} ${r.path.replace(/:(\w+)/g, '{$1}')}`);
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m} ${path}`),
    );
    expect([...new Set(served)].sort()).toEqual([...new Set(documented)].sort());
  });

  it('has every documented operation answer with a documented status, never "no route"', async () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const url = `${running.url}/__admin${path.replace(/\{(\w+)\}/g, (_, p: string) => SAMPLE_PARAMS[p]!)}`;
        const res = await fetch(url, {
          method: method.toUpperCase(),
          ...(op.requestBody ? { headers: { 'content-type': 'application/json' }, body: '{}' } : {}),
        });
        if (res.headers.get('content-type')?.startsWith('text/event-stream')) {
          // The live stream never ends: its first event is enough, then hang up.
          const reader = res.body!.getReader();
          const first = new TextDecoder().decode((await reader.read()).value);
          await reader.cancel();
          expect(first, `${method.toUpperCase()} ${path}`).toMatch(/^event: hello\n/);
          expect(Object.keys(op.responses as Json)).toContain(String(res.status));
          continue;
        }
        const text = await res.text();
        expect(text, `${method.toUpperCase()} ${path}`).not.toContain('route_not_found');
        // The status it answered is one the document lists for this operation.
        expect(Object.keys(op.responses as Json), `${method.toUpperCase()} ${path}: ${text}`).toContain(
          String(res.status),
        );
      }
    }
  });

  it('describes real answers: health, a user, an Issue that matched no credential, the clock, an error', async () => {
    const admin = (path: string, init?: RequestInit) =>
      fetch(`${running.url}/__admin${path}`, init).then(async (r) => ({
        status: r.status,
        body: (await r.json()) as unknown,
      }));
    const post = (path: string, body: unknown) =>
      admin(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    expect(violations('Health', (await admin('/health')).body)).toEqual([]);
    expect(violations('EffectiveConfig', (await admin('/config')).body)).toEqual([]);
    const user = await post('/users', {
      username: 'doc',
      password: 'p',
      idWeb: 1,
      webDescription: 'Doc',
      versions: ['1.7'],
    });
    expect(user.status).toBe(201);
    expect(violations('User', user.body)).toEqual([]);
    const event = await post('/events', { type: 'Issue' });
    expect(event.status).toBe(202);
    expect(violations('EventResult', event.body)).toEqual([]);
    expect(violations('ClockState', (await admin('/clock')).body)).toEqual([]);
    const refused = await post('/credentials', { apiKey: 'k', url: 'http://plain.example/hook' });
    expect(refused.status).toBe(400);
    expect(violations('Problem', refused.body)).toEqual([]);
    expect(
      violations('CredentialInput', {
        apiKey: 'k',
        url: 'https://r.example/hook',
        filters: { pcc: ['AAA1'] },
      }),
    ).toEqual([]);
    expect(violations('CredentialInput', { url: 'https://r.example/hook' })).not.toEqual([]);
  });

  it('describes retry now and the live stream: an attempt with its trigger, and every activity kind', async () => {
    const emulator = createEmulator({ logLevel: 'silent', clock: 'manual', allowHttp: true });
    const seen: unknown[] = [];
    emulator.activity.subscribe((a) => seen.push(JSON.parse(JSON.stringify(a))));
    const app = adminApp(emulator);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await app.request(path, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      return { status: res.status, body: (await res.json().catch(() => null)) as Json };
    };
    await call('POST', '/credentials', { id: 'c', apiKey: 'k', url: 'http://127.0.0.1:9/refused' });
    const event = await call('POST', '/events', { type: 'Issue' });
    const id = (event.body.notifications as Array<{ id: string }>)[0]!.id;
    await emulator.delivery.outbox.waitSettled({}, WAIT_DEADLINE_MS);
    const retried = await call('POST', `/notifications/${id}/retry`);
    expect(retried.status).toBe(200);
    expect(violations('RetryResult', retried.body)).toEqual([]);
    expect(violations('NotificationList', (await call('GET', '/notifications')).body)).toEqual([]);
    expect(violations('Notification', (await call('GET', `/notifications/${id}`)).body)).toEqual([]);
    await call('POST', '/clock/advance', { to: 'next-batch' });
    await call('POST', '/reset');
    const kinds = new Set(seen.map((a) => (a as { kind: string }).kind));
    expect([...kinds].sort()).toEqual([
      'admin',
      'attempt',
      'attempt_started',
      'batch',
      'clock',
      'event',
      'notification_created',
    ]);
    for (const a of seen) expect(violations('Activity', a), JSON.stringify(a)).toEqual([]);
    await emulator.stop();
  });
});
