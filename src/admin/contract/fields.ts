/**
 * The building blocks of the admin answers' schemas (decision 0045): the component registry (a zod
 * registry, decision 0102), which names a schema in the OpenAPI document, and the field shapes every
 * answer reuses.
 */
import { z } from 'zod';
import { API_VERSIONS } from '../../auth/types.js';
import { CLOCK_MODES } from '../../model/clock.js';
import { instant, int, str } from '../../model/fields.js';

/** Which side of a schema the document shows: a request body as accepted (`input`) or an answer as sent. */
export type SchemaSide = 'input' | 'output';

/** What names a schema of the admin API: its component id, and `input` for a request body shown as accepted. */
export interface ComponentMeta {
  id: string;
  side?: 'input';
}

/**
 * The admin API's named schemas, a zod registry (decision 0102): `schema.register(ADMIN_COMPONENTS,
 * { id })` makes it `#/components/schemas/<id>` in the OpenAPI document, in the order registered.
 */
export const ADMIN_COMPONENTS = z.registry<ComponentMeta, z.ZodType>();

export { instant, int, str };
export const CLOCK_MODE = z.enum(CLOCK_MODES);
export const API_VERSION = z.enum(API_VERSIONS);

/** Items a list answers without `limit`, and the most `limit` asks for (decision 0236). */
export const PAGE_LIMIT = 1000;

/**
 * The query members by which every list of the admin API pages (decision 0236): how long a page is
 * and where it starts. A list route declares them in its `query`; test/admin-list-pages.test.ts
 * finds the list routes in the table and pages each.
 */
export const PAGE_QUERY = {
  limit: int
    .min(1)
    .max(PAGE_LIMIT)
    .optional()
    .describe(
      `answer the newest limit matches (oldest first; default ${PAGE_LIMIT}, also the most), with total and nextCursor for the older ones`,
    ),
  before: str.optional().describe('a nextCursor: the page of matches older than that one'),
  after: str.optional().describe('a newerCursor: the page of the limit matches just newer than that one'),
  page: z.literal('oldest').optional().describe('oldest: the oldest limit matches instead of the newest'),
};

/** What every list answers beside its page of items (decision 0236). */
export const PAGE_FIELDS = {
  total: int.describe('how many match in all (the answer is one page of them)'),
  nextCursor: str
    .nullable()
    .describe('pass as before for the next, older page; null when this page reaches the oldest match'),
  newerCursor: str
    .nullable()
    .describe('pass as after for the next, newer page; null when this page reaches the newest match'),
};

/** A list's answer: `{ <key>: [one page of items], total, nextCursor, newerCursor }`. */
export const pageOf = <K extends string, S extends z.ZodType>(key: K, item: S) =>
  z.object({ [key]: z.array(item), ...PAGE_FIELDS } as { [P in K]: z.ZodArray<S> } & typeof PAGE_FIELDS);
