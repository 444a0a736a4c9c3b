/**
 * What one admin route declares (decision 0045): method, path, request and answer schemas, and the
 * words the OpenAPI document and docs show. Declarations only: the handlers are bound by name in
 * src/admin/mount.ts, so the client can read the table without the server's code.
 */
import type { z } from 'zod';
import type { Refusal } from '../../model/refusal.js';

export type Method = 'get' | 'post' | 'put' | 'delete';

/** The groups of the OpenAPI document (its `tags`), in the order it lists them. */
export const ROUTE_TAGS = {
  health: 'readiness and reset',
  delivery: 'credentials, events, reservations, notifications, redelivery',
  clock: 'the emulator clock',
  getaccesstoken: 'users, tokens, request journal, fault injection',
  scenarios: 'the scenario preloaded with serve --scenario',
  verify: 'the receiver conformance kit',
  live: 'the live stream and the dashboard built on it',
} as const;

export interface RouteDeclaration {
  method: Method;
  /** Below `/__admin`, Hono style: `/credentials/:id`. */
  path: string;
  tag: keyof typeof ROUTE_TAGS;
  /** One line for the OpenAPI document. */
  summary: string;
  /** Path parameters that are not plain strings (e.g. an integer BookingID). */
  params?: z.ZodObject;
  query?: z.ZodObject;
  /** The JSON body, read and checked by mount() before the handler runs (decision 0103). */
  body?: z.ZodType;
  /**
   * How mount() refuses a body `body` does not take: a 400 with this code, worded by the body's own
   * domain (the words its config files and `startEmulator` get). Every route with a `body` has one.
   */
  bodyError?: Refusal;
  /**
   * A body sent without a JSON media type is the text of this member of `body` (POST /trust takes
   * the PEM itself: `curl --data-binary @ca.pem`).
   */
  textBody?: string;
  /** Status → answer schema; `null` for an answer without a JSON body. The lowest status is the success one. */
  responses: Readonly<Record<number, z.ZodType | null>>;
  /**
   * Error statuses it answers with a Problem (`default` covers 500 and the guard's refusals). A route
   * with declared `params` or `query` lists 400: mount() answers it for a value they refuse.
   */
  errors?: readonly number[];
  /**
   * Media type of the success answer when it is not JSON (the dashboard, the live stream); several
   * when it depends on what is asked for (the dashboard's scripts and styles).
   */
  media?: string | readonly string[];
  /**
   * The success answer may also come as NDJSON (`application/x-ndjson`, asked for by a query member
   * or `Accept`): one value of this schema a line (decision 0112).
   */
  lines?: z.ZodType;
  /**
   * Why a GET that answers a list takes no `limit` (decision 0236): what keeps it short. Every other
   * list pages (PAGE_QUERY in its `query`); test/admin-list-pages.test.ts checks each has one or the other.
   */
  unpaged?: string;
  /** Why `AdminClient` has no method for it (a page for browsers, an endless stream). */
  noClient?: string;
}

/** Declares a route, keeping its literal types for the client and the handlers. */
export const route = <const R extends RouteDeclaration>(declaration: R): R => declaration;

/** `'/reservations/:bookingId/redeliver'` → `'bookingId'`. */
export type PathParams<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParams<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** What a route answers on success: its answer schema's output, or `void` without a JSON body. */
export type Answer<R extends RouteDeclaration> = {
  // biome-ignore lint/suspicious/noConfusingVoidType: it is a return type (a handler or call that answers nothing)
  [S in keyof R['responses']]: R['responses'][S] extends z.ZodType ? z.output<R['responses'][S]> : void;
}[keyof R['responses']];

/** What a call of the route sends: path parameters, query and body, each only where it has them. */
export type CallInput<R extends RouteDeclaration> = ([PathParams<R['path']>] extends [never]
  ? unknown
  : { params: Record<PathParams<R['path']>, string | number> }) &
  (R['query'] extends z.ZodType ? { query?: z.input<R['query']> } : unknown) &
  (R['body'] extends z.ZodType ? { body: z.input<R['body']> } : unknown);

/** The status of a route's success answer (the lowest it declares). */
export function successStatus(declaration: RouteDeclaration): number {
  return Math.min(...Object.keys(declaration.responses).map(Number));
}
