/**
 * The OpenAPI 3.1 document of the admin API, built from the route table (decision 0045): every path,
 * parameter, body and answer comes from ADMIN_ROUTES and its zod schemas through `z.toJSONSchema`.
 */
import { z } from 'zod';
import { ADMIN_COMPONENTS, type SchemaSide } from './fields.js';
import { ROUTE_TAGS, type RouteDeclaration } from './route.js';
import { ADMIN_ROUTES } from './routes.js';

type Json = Record<string, unknown>;

const REF = '#/components/schemas/';
const ref = (id: string): Json => ({ $ref: `${REF}${id}` });
const json = (schema: Json): Json => ({ content: { 'application/json': { schema } } });

/** The JSON Schema of every schema in `named`, by id, as `side` shows it; refs between them by id. */
function convert(named: Map<z.ZodType, string>, side: SchemaSide): Record<string, Json> {
  const registry = z.registry<{ id: string }>();
  for (const [schema, id] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'draft-2020-12',
    io: side,
    unrepresentable: 'any',
    uri: (id) => `${REF}${id}`,
    override: ({ zodSchema, jsonSchema }) => tidy(zodSchema, jsonSchema as Json),
  });
  const out: Record<string, Json> = {};
  for (const [id, { $schema: _dialect, $id: _id, ...rest }] of Object.entries(schemas))
    out[id] = rest as Json;
  return out;
}

/**
 * An answer may carry members a newer emulator added: only strict objects (request bodies) refuse
 * unknown members. Integers need no ±2^53 bounds spelled out.
 */
function tidy(schema: z.core.$ZodType, json: Json): void {
  const def = schema._zod.def as { type: string; catchall?: unknown };
  if (def.type === 'object' && def.catchall === undefined) delete json.additionalProperties;
  if (json.minimum === Number.MIN_SAFE_INTEGER) delete json.minimum;
  if (json.maximum === Number.MAX_SAFE_INTEGER) delete json.maximum;
}

/** The JSON Schema of one schema on its own (a query or path parameter). */
function inline(schema: z.ZodType): Json {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, {
    target: 'draft-2020-12',
    io: 'input',
    unrepresentable: 'any',
    override: ({ zodSchema, jsonSchema }) => tidy(zodSchema, jsonSchema as Json),
  }) as Json;
  return rest;
}

/** Component ids, plus a made-up id for each unnamed body or answer (inlined into its operation). */
function schemaIds(): { input: Map<z.ZodType, string>; output: Map<z.ZodType, string> } {
  const sides = { input: new Map<z.ZodType, string>(), output: new Map<z.ZodType, string>() };
  // Components go into both conversions so refs resolve either way; each is kept from its own side.
  for (const [id, schema] of ADMIN_COMPONENTS._idmap) {
    sides.input.set(schema, id);
    sides.output.set(schema, id);
  }
  for (const [name, r] of Object.entries(ADMIN_ROUTES) as Array<[string, RouteDeclaration]>) {
    if (r.body && !sides.input.has(r.body)) sides.input.set(r.body, `~${name}`);
    for (const [status, answer] of Object.entries(r.responses))
      if (answer && !sides.output.has(answer)) sides.output.set(answer, `~${name}-${status}`);
    if (r.lines && !sides.output.has(r.lines)) sides.output.set(r.lines, `~${name}-lines`);
  }
  return sides;
}

/** Builds the document; `version` is the package version. */
export function buildOpenApiDocument(version: string): Json {
  const ids = schemaIds();
  const converted = { input: convert(ids.input, 'input'), output: convert(ids.output, 'output') };
  const components: Record<string, Json> = {};
  for (const [id, schema] of ADMIN_COMPONENTS._idmap)
    components[id] = converted[ADMIN_COMPONENTS.get(schema)?.side ?? 'output'][id]!;
  const schemaOf = (schema: z.ZodType, side: SchemaSide): Json => {
    const id = ids[side].get(schema)!;
    return id.startsWith('~') ? converted[side][id]! : ref(id);
  };

  const paths: Record<string, Json> = {};
  for (const [name, r] of Object.entries(ADMIN_ROUTES) as Array<[string, RouteDeclaration]>) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    paths[path] ??= {};
    paths[path]![r.method] = operation(name, r, schemaOf);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'reportbo-emulator admin API',
      version,
      description:
        'Drives the emulator: credentials, events, notifications and their attempts, the clock, GetAccessToken users, tokens, journal and faults. Times are emulator time unless a name ends in Wall. A path called with a method it does not take answers 405 (method_not_allowed) with an Allow header; OPTIONS answers 204 with Allow. Answers never carry a password. See docs/admin-api.md.',
    },
    servers: [{ url: '/__admin' }],
    tags: Object.entries(ROUTE_TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: { schemas: components },
  };
}

function operation(
  name: string,
  r: RouteDeclaration,
  schemaOf: (schema: z.ZodType, side: SchemaSide) => Json,
): Json {
  const params = [...r.path.matchAll(/:(\w+)/g)].map(([, param]) => {
    const declared = r.params?.shape[param!] as z.ZodType | undefined;
    return {
      name: param,
      in: 'path',
      required: true,
      schema: declared ? inline(declared) : { type: 'string' },
    };
  });
  const query = Object.entries((r.query?.shape ?? {}) as Record<string, z.ZodType>).map(([key, schema]) => ({
    name: key,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    ...(schema.description ? { description: schema.description } : {}),
    schema: inline(schema),
  }));
  const responses: Json = {};
  for (const [status, answer] of Object.entries(r.responses)) {
    const ok = Number(status) < 300;
    if (r.media === 'text/event-stream' && answer) {
      responses[status] = {
        description: "an endless stream; each event's data is one Activity as JSON",
        content: { [r.media]: { schema: { type: 'string' }, itemSchema: schemaOf(answer, 'output') } },
      };
    } else if (r.media) {
      const media = typeof r.media === 'string' ? [r.media] : r.media;
      responses[status] = {
        description: 'OK',
        content: Object.fromEntries(media.map((m) => [m, { schema: { type: 'string' } }])),
      };
    } else {
      responses[status] = answer
        ? { description: ok ? 'OK' : 'not ready', ...json(schemaOf(answer, 'output')) }
        : { description: 'no content' };
    }
  }
  // The NDJSON form of the success answer: a sequence of values, one a line (OpenAPI's itemSchema).
  const success = responses[String(Math.min(...Object.keys(r.responses).map(Number)))] as Json | undefined;
  if (r.lines && success?.content)
    (success.content as Json)['application/x-ndjson'] = {
      schema: { type: 'string' },
      itemSchema: schemaOf(r.lines, 'output'),
    };
  for (const status of r.errors ?? []) responses[status] = { description: 'error', ...json(ref('Problem')) };
  responses.default = { description: 'error', ...json(ref('Problem')) };
  return {
    operationId: name,
    tags: [r.tag],
    summary: r.summary,
    ...(params.length + query.length > 0 ? { parameters: [...params, ...query] } : {}),
    ...(r.body ? { requestBody: { required: true, ...json(schemaOf(r.body, 'input')) } } : {}),
    responses,
  };
}
