/** Values named by `as:` that `${name.field}` strings in expectations refer to. */
export type Bindings = ReadonlyMap<string, Record<string, unknown>>;

/** One expected value that did not hold. */
export interface Mismatch {
  field: string;
  expected: unknown;
  actual: unknown;
}

/** Reads `Reservation.BookingStatus`, `Ticket[0].Type`, `a.b.0.c` from plain data. */
export function getPath(data: unknown, path: string): unknown {
  const parts = path.match(/[^.[\]]+/g) ?? [];
  let v: unknown = data;
  for (const p of parts) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string, unknown>)[p];
  }
  return v;
}

/** Replaces `${name}` / `${name.field}` (a whole string) by the bound value; other values pass through. */
export function resolve(value: unknown, bindings: Bindings): unknown {
  if (typeof value === 'string') {
    const m = /^\$\{([A-Za-z][\w-]*)(?:\.([\w.[\]]+))?\}$/.exec(value);
    if (m) {
      const bound = bindings.get(m[1]!);
      if (bound === undefined) return value;
      return m[2] ? getPath(bound, m[2]) : bound.bookingId;
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => resolve(v, bindings));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, bindings)]));
  return value;
}

/** Whether an observed value satisfies a matcher: a literal, `{matches}`, `{exists}` or `{contains}`. */
export function matches(actual: unknown, matcher: unknown): boolean {
  if (isOperator(matcher, 'matches'))
    return typeof actual === 'string' && new RegExp(String(matcher.matches)).test(actual);
  if (isOperator(matcher, 'exists')) return (actual !== undefined && actual !== null) === matcher.exists;
  if (isOperator(matcher, 'contains'))
    return typeof actual === 'string'
      ? actual.includes(String(matcher.contains))
      : JSON.stringify(actual ?? null).includes(String(matcher.contains));
  return deepEqual(actual, matcher);
}

function isOperator<K extends string>(m: unknown, key: K): m is Record<K, unknown> {
  return m !== null && typeof m === 'object' && !Array.isArray(m) && Object.keys(m).length === 1 && key in m;
}

/** Structural equality; numbers compare by value so YAML `200` equals JSON `200`. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Checks one field: pushes a mismatch when the expectation is given and does not hold. */
export function check(out: Mismatch[], field: string, expected: unknown, actual: unknown): void {
  if (expected === undefined) return;
  if (!matches(actual, expected)) out.push({ field, expected, actual });
}

/** Short display of a value for messages. */
export function show(v: unknown): string {
  if (v === undefined) return '(absent)';
  const s = JSON.stringify(v);
  return s.length > 200 ? `${s.slice(0, 197)}…` : s;
}
