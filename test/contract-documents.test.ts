/**
 * The notification contract as OpenAPI 3.1 (webhooks) and AsyncAPI 3.0 documents (decision 0131):
 * the docs/ files are what the generator writes, both pass the official parsers, the emulator serves
 * the same documents (behind the admin guard like openapi.json), and a real delivery matches them:
 * its headers against the documents' header schemas, its decompressed body against their body schema.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FORMATS, type SchemaFormat, schemaText } from '../src/cli/schema.js';
import { startServer } from '../src/server.js';
import { runCli } from './helpers/cli.js';
import { WAIT_DEADLINE_MS } from './helpers/deadline.js';
import { deliveryEmulator } from './helpers/delivery.js';
import { receiver } from './helpers/receiver.js';

// biome-ignore lint/suspicious/noExplicitAny: parsed JSON documents, walked by path in assertions
type Json = Record<string, any>;
const ROOT = new URL('..', import.meta.url);
const docFile = (format: SchemaFormat) => readFileSync(new URL(SCHEMA_FORMATS[format], ROOT), 'utf8');
const openApi = (): Json => JSON.parse(docFile('openapi'));
const asyncApi = (): Json => JSON.parse(docFile('asyncapi'));

describe('the contract documents in docs/', () => {
  it('are what `schema --format` writes (run `npm run build && npm run schema:write` if not)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'contract-docs-'));
    try {
      for (const format of Object.keys(SCHEMA_FORMATS) as SchemaFormat[]) {
        const out = join(dir, `${format}.json`);
        const { code, stderr } = await runCli(['schema', '--format', format, '--out', out]);
        expect(code, stderr).toBe(0);
        const text = await readFile(out, 'utf8');
        expect(text).toBe(await schemaText(format));
        expect(docFile(format), `${SCHEMA_FORMATS[format]} is stale`).toBe(text);
      }
      const refused = await runCli(['schema', '--format', 'openapi3']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('json-schema, openapi, asyncapi');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('embed the same body schema as docs/notification.schema.json', () => {
    const { $schema: _d, $id: _i, description: _desc, ...schema } = JSON.parse(docFile('json-schema'));
    for (const body of [
      openApi().components.schemas.NotificationBody,
      asyncApi().components.schemas.NotificationBody,
    ]) {
      const { description, ...rest } = body;
      expect(rest).toEqual(schema);
      expect(description).toContain('docs/notification.schema.json');
    }
  });
});

describe('the OpenAPI 3.1 document', () => {
  it('passes @seriousme/openapi-schema-validator as 3.1', async () => {
    const validator = new Validator();
    const result = await validator.validate(openApi());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is refused by the same validator when a webhook is broken (the check can fail)', async () => {
    const broken = openApi();
    broken.webhooks.reservationNotification.post.responses = 'only 200';
    const result = await new Validator().validate(broken);
    expect(result.valid).toBe(false);
  });

  it('states the request a receiver gets and the 200-only answer in its webhooks section', () => {
    const doc = openApi();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths).toBeUndefined();
    const post = doc.webhooks.reservationNotification.post;
    expect(Object.keys(doc.webhooks.reservationNotification)).toEqual(['post']);
    expect(post.security).toEqual([{ apiKey: [] }]);
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.components.securitySchemes.apiKey.description).toContain('Bearer <ApiKey>');
    const headers = Object.fromEntries(post.parameters.map((p: Json) => [p.name, p]));
    expect(headers['Content-Encoding']).toMatchObject({
      in: 'header',
      required: true,
      schema: { const: 'gzip' },
    });
    expect(Object.keys(post.requestBody.content)).toEqual(['application/json']);
    expect(Object.keys(post.responses)).toEqual(['200', 'default']);
    expect(post.responses.default.description).toContain('including other 2xx');
  });
});

describe('the AsyncAPI 3.0 document', () => {
  const diagnose = async (doc: Json) => {
    const { document, diagnostics } = await new Parser().parse(JSON.stringify(doc));
    // Spectral severities: 0 error, 1 warning, 2 information, 3 hint.
    return {
      document,
      problems: diagnostics
        .filter((d) => d.severity <= 1)
        .map((d) => `${d.code}: ${d.message} at ${d.path.join('.')}`),
    };
  };

  it('passes @asyncapi/parser with no error and no warning', async () => {
    const { document, problems } = await diagnose(asyncApi());
    expect(problems).toEqual([]);
    expect(document?.version()).toBe('3.0.0');
    const [operation] = document!.operations().all();
    expect(operation!.id()).toBe('sendReservationNotification');
    expect(operation!.action()).toBe('send');
    expect(operation!.bindings().get('http')?.value()).toMatchObject({ method: 'POST' });
    const [message] = operation!.messages().all();
    expect(message!.contentType()).toBe('application/json');
    expect(message!.payload()?.title()).toBe('ReportBO notification body');
    expect(message!.headers()?.required()).toEqual(
      expect.arrayContaining(['Authorization', 'Content-Type', 'Content-Encoding']),
    );
  });

  it('is refused by the same parser when the operation names no channel (the check can fail)', async () => {
    const broken = asyncApi();
    delete broken.operations.sendReservationNotification.channel;
    expect((await diagnose(broken)).problems).not.toEqual([]);
  });
});

describe('served under /__admin', () => {
  it('answers both documents as the docs/ files hold them, behind the admin token like openapi.json', async () => {
    const running = await startServer({ port: 0, logLevel: 'silent', adminToken: 'tok-123' });
    try {
      for (const [path, format] of [
        ['/__admin/notification.openapi.json', 'openapi'],
        ['/__admin/notification.asyncapi.json', 'asyncapi'],
        ['/__admin/openapi.json', undefined],
      ] as const) {
        expect((await fetch(`${running.url}${path}`)).status, path).toBe(401);
        const ok = await fetch(`${running.url}${path}`, { headers: { authorization: 'Bearer tok-123' } });
        expect(ok.status, path).toBe(200);
        if (format) expect(await ok.json()).toEqual(JSON.parse(docFile(format)));
      }
      const admin = (await (
        await fetch(`${running.url}/__admin/openapi.json`, { headers: { authorization: 'Bearer tok-123' } })
      ).json()) as Json;
      expect(admin.paths['/notification.openapi.json'].get.operationId).toBe('notificationOpenApi');
      expect(admin.paths['/notification.asyncapi.json'].get.operationId).toBe('notificationAsyncApi');
    } finally {
      await running.close();
    }
  });
});

describe('a real delivery', () => {
  it('carries the headers both documents state and a body their schema accepts', async () => {
    const r = await receiver();
    const emu = await deliveryEmulator({ allowHttp: true });
    await emu.credential({ id: 'mine', apiKey: 'key-42', url: `${r.url}/reportbo` });
    const issued = await emu.event({ type: 'Issue' });
    await emu.event({ type: 'Exchange', bookingId: issued.reservations[0]!.bookingId });
    await emu.settle();
    const requests = await r.waitForRequests(3, WAIT_DEADLINE_MS);

    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const doc = openApi();
    const body = ajv.compile(doc.components.schemas.NotificationBody);
    const post = doc.webhooks.reservationNotification.post;
    const asyncHeaders = ajv.compile(asyncApi().components.messages.ReservationNotification.headers);
    for (const request of requests) {
      expect(request.method).toBe('POST');
      expect(request.headers['content-type']).toBe(Object.keys(post.requestBody.content)[0]);
      expect(request.headers.authorization).toBe('Bearer key-42');
      for (const p of post.parameters as Json[]) {
        const value = request.headers[p.name.toLowerCase()];
        expect(value, p.name).toBeDefined();
        expect(ajv.validate(p.schema, value), `${p.name}: ${value} ${ajv.errorsText()}`).toBe(true);
      }
      const named = Object.fromEntries(
        Object.keys(asyncApi().components.messages.ReservationNotification.headers.properties).map((name) => [
          name,
          request.headers[name.toLowerCase()],
        ]),
      );
      expect(asyncHeaders(named), ajv.errorsText(asyncHeaders.errors)).toBe(true);
      const parsed = JSON.parse(request.body);
      expect(body(parsed), ajv.errorsText(body.errors)).toBe(true);
      // The schema is the strict one: a member the contract does not know is refused.
      expect(body({ ...parsed, Surprise: 1 })).toBe(false);
    }
  });
});
