import type { z } from 'zod';

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  options?: z.ZodType[];
  valueType?: z.ZodType;
};

const def = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Strips wrappers (optional, default, nullable, pipe) down to the schema that does the work. */
function unwrap(s: z.ZodType): z.ZodType {
  let cur = s;
  for (;;) {
    const d = def(cur);
    const inner = d.innerType ?? (d.type === 'pipe' ? d.in : undefined);
    if (!inner) return cur;
    cur = inner;
  }
}

/** Every schema a field path can lead to (unions fan out). */
function schemasAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodType[] {
  let current = [unwrap(schema)];
  for (const part of path) {
    const next: z.ZodType[] = [];
    const visit = (s: z.ZodType) => {
      const d = def(s);
      if (d.type === 'union') for (const o of d.options ?? []) visit(unwrap(o));
      else if (d.type === 'object' && typeof part === 'string' && d.shape?.[part])
        next.push(unwrap(d.shape[part]));
      else if (d.type === 'array' && typeof part === 'number' && d.element) next.push(unwrap(d.element));
      else if (d.type === 'record' && d.valueType) next.push(unwrap(d.valueType));
    };
    for (const s of current) visit(s);
    current = next;
  }
  return current;
}

/** The field names a mapping at this path accepts, for "unknown field" messages. */
export function acceptedKeysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const keys = new Set<string>();
  const collect = (s: z.ZodType) => {
    const d = def(s);
    if (d.type === 'union') for (const o of d.options ?? []) collect(unwrap(o));
    else if (d.type === 'object') for (const k of Object.keys(d.shape ?? {})) keys.add(k);
  };
  for (const s of schemasAt(schema, path)) collect(s);
  return [...keys];
}
