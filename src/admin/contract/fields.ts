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
