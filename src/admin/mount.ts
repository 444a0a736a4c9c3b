import type { Context, Env, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { z } from 'zod';
import { formatPath, InputError } from '../errors.js';
import { unknownKeyMessage } from '../model/closest-key.js';
import { parseOr, type Refusal } from '../model/refusal.js';
import { checkedBody } from './body-limits.js';
import { type Answer, type PathParams, type RouteDeclaration, successStatus } from './contract/route.js';
import { ADMIN_ROUTES, type AdminRoutes, type OperationName } from './contract/routes.js';

/** What a handler is handed, read and validated from the request by its route's declaration. */
export interface RouteInput<R extends RouteDeclaration> {
  /** Path parameters: as declared in `params` (e.g. a positive integer BookingID), else as text. */
  params: R['params'] extends z.ZodType ? z.output<R['params']> : Record<PathParams<R['path']>, string>;
  /** The query string as declared in `query` (numbers read as numbers); `{}` when it declares none. */
  query: R['query'] extends z.ZodType ? z.output<R['query']> : Record<string, never>;
  /** The JSON body as declared in `body` (decision 0103); `undefined` when it declares none. */
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
}

/**
 * Answers one admin operation: the value of its declared answer (rendered as JSON with the route's
 * success status, or an empty 204), or a Response when it answers otherwise (a stream, a page, a 503).
 */
type Handler<K extends OperationName> = (
  c: Context<Env, AdminRoutes[K]['path']>,
  input: RouteInput<AdminRoutes[K]>,
) => Sent<Answer<AdminRoutes[K]>> | Response | Promise<Sent<Answer<AdminRoutes[K]>> | Response>;

/** An answer as a handler may hand it over: the services keep their lists read-only. */
type Sent<T> =
  T extends ReadonlyArray<infer U>
    ? ReadonlyArray<Sent<U>>
    : T extends object
      ? { readonly [P in keyof T]: Sent<T[P]> }
      : T;

/** Handlers by operation name (the keys of ADMIN_ROUTES). */
export type Handlers<K extends OperationName> = { [P in K]: Handler<P> };

/**
 * Adds each handler to `app` at the method and path its route declares (decision 0045): a group of
 * routes names its operations, never a method or path of its own. Path parameters and the query
 * string are validated against the declared schemas before the handler runs (decision 0115): a
 * wrong one answers 400 `invalid_parameter` or `invalid_query` naming it. So is the JSON body
 * (decision 0103): a body its schema refuses answers 400 with the route's `bodyError`. Returns `app`.
 */
export function mount<K extends OperationName>(app: Hono, handlers: Handlers<K>): Hono {
  for (const [name, handler] of Object.entries(handlers) as Array<[K, Handler<K>]>) {
    const declared: RouteDeclaration = ADMIN_ROUTES[name];
    const status = successStatus(declared);
    app.on(declared.method.toUpperCase(), declared.path, async (c) => {
      const params = declared.params
        ? read(declared.params, c.req.param() as Record<string, string>, 'invalid_parameter')
        : c.req.param();
      const query = declared.query ? read(declared.query, c.req.query(), 'invalid_query') : {};
      const body = declared.body ? await readBody(c, declared.body, declared) : undefined;
      const answer = await handler(c as never, { params, query, body } as RouteInput<AdminRoutes[K]>);
      if (answer instanceof Response) return answer;
      return status === 204 ? c.body(null, 204) : c.json(answer as object, status as ContentfulStatusCode);
    });
  }
  return app;
}

/** Refuses a body of a route that declares no `bodyError` of its own (each does: test/admin-bodies.test.ts). */
const ANY_BODY: Refusal = {
  code: 'invalid_body',
  words: (issue, message) => ({
    message: `${formatPath(issue.path)}: ${message}.`,
    details: { path: formatPath(issue.path) },
  }),
};

/**
 * The request body as `schema` reads it. Behind the admin guard (body-limits.ts) it was already
 * read, its size and depth bounded and its UTF-8 checked (`checkedBody`); the admin app mounted
 * alone (tests) reads it here. It is JSON (an empty body reads as `{}`), or with `textBody`
 * and no JSON media type the text of that member.
 */
async function readBody(c: Context, schema: z.ZodType, declared: RouteDeclaration): Promise<unknown> {
  const text = checkedBody(c) ?? (await c.req.text());
  const json = (c.req.header('content-type') ?? '').includes('json');
  const raw = declared.textBody !== undefined && !json ? { [declared.textBody]: text } : parseJson(text);
  return parseOr(schema, declared.bodyError ?? ANY_BODY, raw);
}

function parseJson(text: string): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('invalid_json', 'The request body must be JSON (Content-Type: application/json).');
  }
}

/**
 * Reads URL text (`"42"`) against its declared schema: a value whose schema takes a number is read
 * as one when it is written as a plain decimal, so `"1e3"`, `"0x10"` and `" 5"` stay text and are refused.
 * A query member the schema does not declare is refused, naming the closest one it does.
 */
export function read<S extends z.ZodObject>(
  schema: S,
  text: Record<string, string>,
  code: 'invalid_parameter' | 'invalid_query',
): z.output<S> {
  const values: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(text)) {
    const field = schema.shape[key] as z.ZodType | undefined;
    // A misspelt member (`limt`) is refused, not dropped: the list would answer as if it was not given.
    if (field === undefined && code === 'invalid_query') {
      const accepted = Object.keys(schema.shape);
      throw new InputError(
        code,
        `${unknownKeyMessage('query member', key, accepted)}; accepted: ${accepted.join(', ')}.`,
        {
          path: key,
          accepted,
        },
      );
    }
    values[key] = field && takesNumber(field) && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  const parsed = schema.safeParse(values);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = formatPath(issue.path);
  const given = `"${text[String(issue.path[0])] ?? ''}"`;
  if (issue.code === 'invalid_value') {
    const accepted = issue.values.map(String);
    throw new InputError(code, `${path}: ${given} is not one of ${accepted.join(', ')}.`, { path, accepted });
  }
  throw new InputError(code, `${path} ${rule(issue)}, got ${given}.`, { path });
}

/** What a refused URL value should have been, in words. */
function rule(issue: z.core.$ZodIssue): string {
  if (issue.code === 'too_small') {
    const least = issue.inclusive ? Number(issue.minimum) : Number(issue.minimum) + 1;
    return `must be a whole number of at least ${least}`;
  }
  if (issue.code === 'too_big') {
    const most = issue.inclusive ? Number(issue.maximum) : Number(issue.maximum) - 1;
    return `must be a whole number of at most ${most}`;
  }
  if (issue.code === 'invalid_type' && (issue.expected === 'number' || issue.expected === 'int'))
    return 'must be a whole number (digits only)';
  return `is refused: ${issue.message}`;
}

/** Whether a field's schema takes a number (through optional/default wrappers). */
function takesNumber(schema: z.ZodType): boolean {
  const def = schema._zod.def as { type: string; innerType?: z.ZodType };
  if (def.type === 'number') return true;
  return def.innerType !== undefined && takesNumber(def.innerType);
}
