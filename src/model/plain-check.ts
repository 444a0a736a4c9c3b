/**
 * A shape's fast check: what reading a record back runs before zod itself (src/store/kinds.ts), so
 * data that fits is kept as read, with no allocation (docs/perf-budget.md).
 */
import type { z } from 'zod';

export type Check = (v: unknown) => boolean;

/** What `plainCheck` reads of a zod 4 schema's definition. */
interface PlainDef {
  type: string;
  checks?: unknown[];
  format?: string;
  entries?: Record<string, unknown>;
  values?: unknown[];
  innerType?: z.ZodType;
  element?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  catchall?: unknown;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A predicate true exactly when zod would answer `schema`'s parse with the input unchanged, for the
 * plain shapes records use (objects without unknown members, strings, numbers, safe integers,
 * booleans, enums, literals, optional, nullable, arrays, records); undefined when the schema holds
 * anything else (a check, a transform, a default, a strict object): zod reads those kinds.
 */
export function plainCheck(schema: z.ZodType): Check | undefined {
  const def = schema._zod.def as PlainDef;
  if (def.checks?.length) return undefined;
  switch (def.type) {
    case 'string':
      return (v) => typeof v === 'string';
    case 'boolean':
      return (v) => typeof v === 'boolean';
    case 'number':
      if (def.format === 'safeint') return Number.isSafeInteger;
      return def.format === undefined ? Number.isFinite : undefined;
    case 'enum': {
      const values = new Set(Object.values(def.entries ?? {}));
      return (v) => values.has(v);
    }
    case 'literal': {
      const values = new Set(def.values);
      return (v) => values.has(v);
    }
    case 'optional':
    case 'nullable': {
      const inner = def.innerType && plainCheck(def.innerType);
      if (!inner) return undefined;
      return def.type === 'optional' ? (v) => v === undefined || inner(v) : (v) => v === null || inner(v);
    }
    case 'array': {
      const element = def.element && plainCheck(def.element);
      if (!element) return undefined;
      return (v) => {
        if (!Array.isArray(v)) return false;
        // A loop, not every(): every() skips the holes of a sparse array, which zod reads as undefined.
        for (let i = 0; i < v.length; i++) if (!element(v[i])) return false;
        return true;
      };
    }
    case 'record': {
      const key = def.keyType && plainCheck(def.keyType);
      const value = def.valueType && plainCheck(def.valueType);
      if (!key || !value) return undefined;
      return (v) => isObject(v) && Object.keys(v).every((k) => key(k) && value(v[k]));
    }
    case 'object': {
      if (def.catchall !== undefined || !def.shape) return undefined;
      const members: Array<[string, Check]> = [];
      for (const [name, member] of Object.entries(def.shape)) {
        const check = plainCheck(member);
        if (!check) return undefined;
        members.push([name, check]);
      }
      const known = new Set(members.map(([name]) => name));
      return (v) => {
        if (!isObject(v)) return false;
        for (const [name, check] of members) if (!check(v[name])) return false;
        // A member zod would drop: zod reads it.
        for (const name in v) if (!known.has(name)) return false;
        return true;
      };
    }
    default:
      return undefined;
  }
}
