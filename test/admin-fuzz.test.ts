import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES } from '../src/admin/contract/routes.js';
import { type Receiver, startReceiver } from '../src/receivers/index.js';
import { type RunningEmulator, startServer } from '../src/server.js';
import { CLOCK_START } from './helpers/clock.js';

// An OpenAPI-driven fuzzer over every admin operation (issue 31 §1, decision 0112): for each
// operation of the served document, fast-check draws path parameters, query strings and bodies from
// the operation's own JSON Schemas (valid values, and near-valid ones: a member dropped, misspelt or
// of the wrong type, a number out of range, a string that breaks its pattern), sends them over a
// socket with the admin token, and checks that the answer is never a 5xx, that its status is one the
// document lists for that operation (not only `default`), and that its body matches the schema the
// document gives for that status. A fixed seed and a modest number of runs keep it bounded; a
// failure prints fast-check's seed and path (FUZZ_SEED / FUZZ_RUNS change them).

type Json = Record<string, unknown>;
type Schema = Json & {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  prefixItems?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
};
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema; itemSchema?: Schema }> }>;
}
interface Doc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const addFormats = addFormatsModule.default;
const TOKEN = 'fuzz-admin-token';
const SEED = Number(process.env.FUZZ_SEED ?? 20261125);
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);

let emulator: RunningEmulator;
let receiver: Receiver;
let doc: Doc;
let ajv: Ajv2020;
/** Path parameter values that name something that exists, by parameter name (filled in beforeEach). */
const known: Record<string, string[]> = {};
/** The same by the path before the parameter (an `id` of /outages/ is an outage's). */
const byPath: Record<string, string[]> = {};

async function call(method: string, path: string, body?: unknown, query = '', accept?: string) {
  const res = await fetch(`${emulator.url}/__admin${path}${query}`, {
    method: method.toUpperCase(),
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(accept ? { accept } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', text };
}

beforeAll(async () => {
  receiver = await startReceiver();
  emulator = await startServer({
    port: 0,
    adminToken: TOKEN,
    clock: 'manual',
    clockStart: CLOCK_START,
    logLevel: 'silent',
    allowHttp: true,
    responseTimeoutMs: 2000,
  });
  doc = JSON.parse((await call('get', '/openapi.json')).text) as Doc;
  ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc, 'openapi');
});
/** Statuses seen per operation, printed with FUZZ_STATS=1 (how much of each operation a run reached). */
const seen = new Map<string, Map<number, number>>();
afterAll(async () => {
  if (process.env.FUZZ_STATS)
    for (const [name, statuses] of seen) console.log(name, Object.fromEntries(statuses));
  await emulator?.close();
  await receiver?.close();
});

/** Makes sure there is a user, a credential, a reservation with a notification, an outage and a fault. */
beforeEach(async () => {
  await call('post', '/users', { username: 'ana', password: 'pw', idWeb: 7, webDescription: 'Ana' });
  await call('post', '/credentials', { id: 'c1', url: `${receiver.url}/hook`, apiKey: 'k1' });
  const event = JSON.parse((await call('post', '/events', { type: 'Issue' })).text) as Json;
  const outage = JSON.parse((await call('post', '/outages', { attempts: 1 })).text) as Json;
  const fault = JSON.parse(
    (await call('post', '/faults', { kind: 'status', status: 503, count: 1 })).text,
  ) as Json;
  const notifications = (JSON.parse((await call('get', '/notifications')).text) as { notifications: Json[] })
    .notifications;
  const reservations = (JSON.parse((await call('get', '/reservations')).text) as { reservations: Json[] })
    .reservations;
  // One GetAccessToken call: a journal entry and a token to name.
  await fetch(`${emulator.url}/api/1.7/AuthService.json/GetAccessToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Username: 'ana', Password: 'pw' }),
  });
  const requests = (JSON.parse((await call('get', '/requests')).text) as { requests: Json[] }).requests;
  const tokens = (JSON.parse((await call('get', '/tokens')).text) as { tokens: Json[] }).tokens;
  const trusted = JSON.parse((await call('get', '/trust')).text) as { certificates?: Json[] };
  byPath['/notifications/'] = notifications.slice(0, 3).map((n) => String(n.id));
  byPath['/outages/'] = [String(outage.id)];
  byPath['/faults/'] = [String(fault.id)];
  byPath['/credentials/'] = ['c1'];
  byPath['/requests/'] = requests.slice(-2).map((r) => String(r.id));
  byPath['/tokens/'] = tokens.slice(-2).map((t) => String(t.token));
  byPath['/trust/'] = (trusted.certificates ?? []).map((c) => String(c.fingerprint256));
  known.bookingId = [...reservations.slice(0, 2).map((r) => String(r.bookingId)), String(event.bookingId)];
  known.username = ['ana'];
  known.file = ['dashboard.js', 'dashboard.css', '__proto__', 'constructor'];
  known.token = ['no-such-token'];
  known.fingerprint = ['AB:CD:EF'];
});

// ---- arbitraries from JSON Schema ----

function resolve(schema: Schema): Schema {
  let s = schema;
  while (s.$ref) s = doc.components.schemas[s.$ref.replace('#/components/schemas/', '')]!;
  return s;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

/**
 * Strings that mean something to a member of this name, which JSON Schema only calls a string (a URL,
 * an instant, a duration, a credential): without them almost every drawn body would be refused.
 */
function hint(name: string): fc.Arbitrary<unknown> | undefined {
  const instant = fc
    .integer({ min: -48, max: 48 })
    .map((h) => new Date(Date.parse(CLOCK_START) + h * 3_600_000).toISOString());
  const hints: Record<string, fc.Arbitrary<unknown>> = {
    url: fc.constantFrom(`${receiver.url}/hook`, 'https://127.0.0.1:9/hook', 'ftp://x', 'not a url'),
    from: instant,
    until: instant,
    since: instant,
    to: fc.oneof(instant, fc.constant('next-batch')),
    for: fc.constantFrom('PT1H', '90m', 60_000, 'P367D', 'PT0S'),
    credentialId: fc.constantFrom('c1', 'no-such'),
    credentialIds: fc.constantFrom(['c1'], [], ['no-such']),
  };
  return hints[name];
}

/** Values the schema accepts (as far as JSON Schema says: refinements in code may still refuse some). */
function valid(schema: Schema, depth = 0, name?: string): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const hinted = name === undefined ? undefined : hint(name);
  if (hinted) return fc.oneof({ weight: 4, arbitrary: hinted }, { weight: 1, arbitrary: valid(s, depth) });
  if (Array.isArray(s.examples) && s.examples.length > 0)
    return fc.oneof(fc.constantFrom(...s.examples), valid({ ...s, examples: undefined }, depth));
  if ('const' in s) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.anyOf ?? s.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => valid(a, depth + 1)));
  const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (types.length > 1) return fc.oneof(...types.map((t) => valid({ ...s, type: t }, depth)));
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = num(s.minimum) ?? (num(s.exclusiveMinimum) ?? -1_000_001) + 1;
      const max = num(s.maximum) ?? (num(s.exclusiveMaximum) ?? 1_000_001) - 1;
      return fc.oneof(fc.integer({ min, max }), fc.constantFrom(min, max));
    }
    case 'number': {
      const min = num(s.minimum) ?? num(s.exclusiveMinimum) ?? -1e6;
      const max = num(s.maximum) ?? num(s.exclusiveMaximum) ?? 1e6;
      return fc.double({
        min,
        max,
        noNaN: true,
        noDefaultInfinity: true,
        minExcluded: s.exclusiveMinimum !== undefined,
        maxExcluded: s.exclusiveMaximum !== undefined,
      });
    }
    case 'string': {
      if (s.format === 'date-time')
        return fc
          .date({
            min: new Date('2000-01-01T00:00:00Z'),
            max: new Date('2100-01-01T00:00:00Z'),
            noInvalidDate: true,
          })
          .map((d) => d.toISOString());
      const minLength = num(s.minLength) ?? 0;
      const maxLength = Math.min(num(s.maxLength) ?? minLength + 24, minLength + 24);
      if (typeof s.pattern === 'string')
        return fc
          .stringMatching(new RegExp(s.pattern))
          .filter((v) => v.length >= minLength && v.length <= (num(s.maxLength) ?? Infinity));
      return fc.string({ minLength, maxLength });
    }
    case 'array': {
      if (s.prefixItems) return fc.tuple(...s.prefixItems.map((p) => valid(p, depth + 1)));
      const minLength = num(s.minItems) ?? 0;
      return fc.array(s.items ? valid(s.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
        minLength,
        maxLength: Math.min(num(s.maxItems) ?? minLength + 3, minLength + 3),
      });
    }
    case 'object': {
      const props = s.properties ?? {};
      if (depth > 6 || Object.keys(props).length === 0)
        return s.additionalProperties === false
          ? fc.constant({})
          : fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      const record: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [k, v] of Object.entries(props)) record[k] = valid(v, depth + 1, k);
      return fc.record(record, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of the wrong kind for `schema`, or one just outside what it accepts. */
function wrong(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const others = fc.constantFrom<unknown>(
    null,
    true,
    0,
    -1,
    1.5,
    '',
    'x',
    [],
    {},
    'not-a-date',
    2 ** 64,
    -(2 ** 63),
  );
  const near: fc.Arbitrary<unknown>[] = [others];
  if (typeof s.maximum === 'number') near.push(fc.constant(s.maximum + 1));
  if (typeof s.minimum === 'number') near.push(fc.constant(s.minimum - 1));
  if (typeof s.maxLength === 'number') near.push(fc.constant('y'.repeat(s.maxLength + 1)));
  if (s.type === 'string') near.push(fc.string({ maxLength: 12 }), fc.constant('\u0000\r\n'));
  return fc.oneof(...near);
}

/** A valid object with one thing wrong: a member dropped, misspelt, of the wrong kind, or unknown. */
function nearValid(schema: Schema): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  const props = Object.keys(s.properties ?? {});
  if ((s.type !== 'object' && !s.properties) || props.length === 0)
    return fc.oneof(wrong(s), fc.constantFrom<unknown>('{"unterminated":', '[', 'null'));
  return fc.oneof(
    fc.tuple(valid(s) as fc.Arbitrary<Json>, fc.constantFrom(...props)).map(([v, k]) => {
      const { [k]: _gone, ...rest } = v;
      return rest;
    }),
    fc.tuple(valid(s) as fc.Arbitrary<Json>, fc.constantFrom(...props)).map(([v, k]) => {
      const { [k]: value, ...rest } = v;
      return { ...rest, [`${k.slice(0, -1)}${k.at(-1) === 'x' ? 'y' : 'x'}`]: value ?? 1 };
    }),
    fc
      .constantFrom(...props)
      .chain((k) => fc.tuple(valid(s) as fc.Arbitrary<Json>, fc.constant(k), wrong(s.properties![k]!)))
      .map(([v, k, bad]) => ({ ...v, [k]: bad })),
    fc.constantFrom<unknown>('{"unterminated":', '[1,2', [], null, 'text', { deep: { deeper: [{}] } }),
  );
}

/** A path parameter: one that exists, one the schema accepts, or a string it may not. */
function pathValue(p: Parameter, path: string): fc.Arbitrary<string> {
  const prefix = path.slice(0, path.indexOf(`{${p.name}}`)).replace(/^(\/[^/]+\/).*$/, '$1');
  const existing = byPath[prefix] ?? known[p.name] ?? [];
  return fc.oneof(
    ...(existing.length > 0 ? [fc.constantFrom(...existing)] : []),
    valid(p.schema).map(String),
    fc.constantFrom('0', '-1', '1.5', '1e3', '9'.repeat(25), 'no-such', 'a b', '%', '..', '__proto__', 'ü'),
    fc.string({ minLength: 1, maxLength: 16 }),
  );
}

/** Operation-specific bounds that keep the run short (not findings: each is documented behaviour). */
const QUERY_OVERRIDES: Record<string, fc.Arbitrary<unknown>> = {
  // wait=settled holds the answer up to timeoutMs (≤ 300 s, as documented).
  timeoutMs: fc.integer({ min: 0, max: 200 }),
};

function request(op: Operation, path: string) {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  const queryParams = params.filter((p) => p.in === 'query');
  const pathArb = fc.record(Object.fromEntries(pathParams.map((p) => [p.name, pathValue(p, path)])));
  const queryArb = fc.record(
    Object.fromEntries(
      queryParams.map((p) => [
        p.name,
        QUERY_OVERRIDES[p.name] ??
          fc.oneof({ weight: 3, arbitrary: valid(p.schema) }, { weight: 1, arbitrary: wrong(p.schema) }),
      ]),
    ),
    { requiredKeys: queryParams.filter((p) => p.required).map((p) => p.name) },
  );
  const extraQuery = fc.option(fc.constantFrom('limt=1', 'stat=pending', 'x=1'), { freq: 5 });
  const schema = op.requestBody?.content['application/json']?.schema;
  const bodyArb: fc.Arbitrary<unknown> = schema
    ? fc.oneof({ weight: 2, arbitrary: valid(schema) }, { weight: 3, arbitrary: nearValid(schema) })
    : fc.constant(undefined);
  // An answer the document also gives as NDJSON is asked for so by Accept (verify) or by the query (export).
  const ndjson = Object.values(op.responses).some((r) => r.content?.['application/x-ndjson']);
  const acceptArb = ndjson ? fc.option(fc.constant('application/x-ndjson')) : fc.constant(null);
  return fc
    .record({ params: pathArb, query: queryArb, extraQuery, body: bodyArb, accept: acceptArb })
    .map((r) => {
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(r.params[name])));
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(r.query))
        if (v !== undefined) qs.set(k, typeof v === 'string' ? v : JSON.stringify(v));
      const query = [qs.toString(), r.extraQuery ?? ''].filter(Boolean).join('&');
      return { url, query: query ? `?${query}` : '', body: r.body, accept: r.accept ?? undefined };
    });
}

/** The operation of the served document with this operationId, with its path and method. */
function find(operationId: string): { path: string; method: string; op: Operation } {
  for (const [path, byMethod] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(byMethod))
      if (op.operationId === operationId) return { path, method, op };
  throw new Error(`${operationId} is not in the served document`);
}

const compiled = new Map<string, ReturnType<Ajv2020['compile']>>();
/** The validator of a response schema (its refs point into the document added as `openapi`). */
function validatorOf(key: string, schema: Schema) {
  let v = compiled.get(key);
  if (!v) {
    v = ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi#/components/')));
    compiled.set(key, v);
  }
  return v;
}

describe('admin API fuzzer (the served OpenAPI document)', () => {
  // Every operation of the route table but the endless live stream (checked on its own below).
  const names = Object.keys(ADMIN_ROUTES).filter((name) => name !== 'stream');

  it.each(names)('%s: a listed status, a body matching its schema, never a 5xx', async (name) => {
    const { path, method, op } = find(name);
    const runs = name === 'verify' ? Math.min(RUNS, 4) : RUNS;
    await fc.assert(
      fc.asyncProperty(request(op, path), async (req) => {
        // verify sends to the receiver it is given: only ever a closed local port, failing fast.
        const body =
          name === 'verify' && req.body && typeof req.body === 'object' && !Array.isArray(req.body)
            ? {
                ...req.body,
                receiver: 'http://127.0.0.1:9/hook',
                allowHttp: true,
                failFast: true,
                responseTimeoutMs: 300,
                probeDeadlineMs: 0,
              }
            : req.body;
        const res = await call(method, req.url, body, req.query, req.accept);
        const statuses = seen.get(name) ?? new Map<number, number>();
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        seen.set(name, statuses);
        const where = `${method.toUpperCase()} ${req.url}${req.query} ${body === undefined ? '' : JSON.stringify(body).slice(0, 300)} → ${res.status} ${res.text.slice(0, 300)}`;
        expect(res.status, where).toBeLessThan(500);
        const listed = Object.keys(op.responses).filter((s) => s !== 'default');
        expect(listed, `status not listed: ${where}`).toContain(String(res.status));
        const content = op.responses[String(res.status)]?.content;
        if (content) {
          // The answer's media type is one the document lists for this status.
          const media = res.type.split(';')[0]!.trim();
          expect(Object.keys(content), `media type not listed: ${where}`).toContain(media);
          const { schema, itemSchema } = content[media]!;
          if (media === 'application/json') {
            const validate = validatorOf(`${name} ${res.status}`, schema);
            expect(validate(JSON.parse(res.text)) ? [] : validate.errors, where).toEqual([]);
          } else if (itemSchema && media === 'application/x-ndjson') {
            const validate = validatorOf(`${name} ${res.status} lines`, itemSchema);
            for (const line of res.text.split('\n').filter(Boolean))
              expect(
                validate(JSON.parse(line)) ? [] : validate.errors,
                `${where}\n${line.slice(0, 300)}`,
              ).toEqual([]);
          }
        }
      }),
      { seed: SEED, numRuns: runs },
    );
    expect((await call('get', '/health')).status).toBe(200);
  });

  it('opens the live stream with its listed status and media type', async () => {
    const abort = new AbortController();
    const res = await fetch(`${emulator.url}/__admin/stream`, {
      headers: { authorization: `Bearer ${TOKEN}` },
      signal: abort.signal,
    });
    expect(Object.keys(doc.paths['/stream']!.get!.responses)).toContain(String(res.status));
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    abort.abort();
  });
});
