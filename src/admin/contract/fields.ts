/**
 * The building blocks of the admin answers' schemas (decision 0045): the component registry, which
 * names a schema in the OpenAPI document, and the field shapes every answer reuses.
 */
import { z } from 'zod';
import { API_VERSIONS } from '../../auth/types.js';
import { CLOCK_MODES } from '../../model/clock.js';
import { instant, int, str } from '../../model/fields.js';

/** Which side of a schema the document shows: a request body as accepted (`input`) or an answer as sent. */
export type SchemaSide = 'input' | 'output';

/** A named schema of the admin API: it becomes `#/components/schemas/<id>` in the OpenAPI document. */
export interface Component {
  id: string;
  schema: z.ZodType;
  side: SchemaSide;
}

/** Every named schema, in the order they were declared. */
export const COMPONENTS: Component[] = [];

/** Names `schema` as the component `id` (shown as accepted when `side` is `input`) and returns it. */
export function component<S extends z.ZodType>(id: string, schema: S, side: SchemaSide = 'output'): S {
  COMPONENTS.push({ id, schema, side });
  return schema;
}

export { instant, int, str };
export const CLOCK_MODE = z.enum(CLOCK_MODES);
export const API_VERSION = z.enum(API_VERSIONS);
