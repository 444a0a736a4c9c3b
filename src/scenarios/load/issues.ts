import type { z } from 'zod';

/** One problem in a scenario file, before a position is attached. */
export interface RawProblem {
  path: PropertyKey[];
  message: string;
  /** For unknown fields: the offending key, so the position can point at it. */
  key?: string;
}

type Issue = z.core.$ZodIssue;

/**
 * Turns zod issues into problems that say what was expected and what was found. Union failures are
 * narrowed to the branch that fits best, so an error inside a step names the field inside it.
 */
export function problemsFrom(
  issues: readonly Issue[],
  data: unknown,
  keysAt: KeysAt,
  base: PropertyKey[] = [],
): RawProblem[] {
  return issues.flatMap((issue) => problemsOf(issue, data, keysAt, base));
}

/** Lists the field names a mapping at a path accepts. */
export type KeysAt = (path: readonly PropertyKey[]) => string[];

function problemsOf(issue: Issue, data: unknown, keysAt: KeysAt, base: PropertyKey[]): RawProblem[] {
  const path = [...base, ...issue.path];
  const found = describe(valueAt(data, path));
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({
        path: [...path, key],
        key,
        message: `unknown field "${key}"; accepted: ${keysAt(path).join(', ') || '(none)'}`,
      }));
    case 'invalid_type':
      return [
        {
          path,
          message:
            found === 'nothing'
              ? `required field missing (expected ${kind(issue.expected)})`
              : `expected ${kind(issue.expected)}, found ${found}`,
        },
      ];
    case 'invalid_value':
      return [
        {
          path,
          message: `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, found ${found}`,
        },
      ];
    case 'invalid_union': {
      const branch = bestBranch(issue.errors);
      if (branch) return problemsFrom(branch, data, keysAt, path);
      const keys = isObject(valueAt(data, path))
        ? ` (fields found: ${Object.keys(valueAt(data, path) as object).join(', ')})`
        : '';
      return [{ path, message: `${issue.message}; found ${found}${keys}` }];
    }
    default: {
      const message = issue.message.replace(/^Invalid input: /, '');
      const value = valueAt(data, path);
      // Reference checks already quote the value they could not resolve.
      const quoted = typeof value === 'string' && message.includes(`"${value}"`);
      return [{ path, message: quoted ? message : `${message}; found ${found}` }];
    }
  }
}

/**
 * Picks the union branch the input was meant for: the one without structural issues (unknown or
 * missing fields) at its own level. None when every branch is structurally wrong.
 */
function bestBranch(branches: readonly (readonly Issue[])[]): readonly Issue[] | undefined {
  const structural = (i: Issue) =>
    i.path.length === 0 &&
    (i.code === 'unrecognized_keys' || i.code === 'invalid_type' || i.code === 'invalid_value');
  const missingTop = (i: Issue) =>
    i.path.length === 1 && i.code === 'invalid_type' && /received undefined/.test(i.message);
  const fits = branches.filter((b) => b.length > 0 && !b.some(structural) && !b.some(missingTop));
  if (fits.length === 0) return undefined;
  return fits.reduce((a, b) => (depth(b) > depth(a) ? b : a));
}

function depth(issues: readonly Issue[]): number {
  return Math.max(...issues.map((i) => i.path.length));
}

const KINDS: Record<string, string> = {
  array: 'a list',
  object: 'a mapping',
  string: 'a string',
  number: 'a number',
  boolean: 'true or false',
};
const kind = (expected: string) => KINDS[expected] ?? expected;

/** The value at a field path of plain data. */
export function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = data;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** A short description of a found value: `"soon"`, `12`, `a list`, `a mapping`, `nothing`. */
export function describe(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null (an empty value)';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'a mapping';
  const s = JSON.stringify(v);
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
