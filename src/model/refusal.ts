/**
 * How an input its zod schema refuses is answered (decision 0103): a 400 with the input's own code
 * and a message in the words of its domain, for the first issue. The admin routes declare one beside
 * their body schema (`bodyError`, read by src/admin/mount.ts); the domain's own parsers (a config
 * file's users, `startEmulator`'s credentials, a scenario's events) use the same one, so a body is
 * refused in the same words wherever it comes from.
 */
import type { z } from 'zod';
import { unknownKeyMessage } from './closest-key.js';
import { type ErrorDetails, InputError } from './errors.js';

export interface Refusal {
  /** The error code of the 400, e.g. `invalid_user`. */
  readonly code: string;
  /**
   * The message and details for the issue that tells most (see `refuse`). `message` is the issue in words (an unknown key
   * names the closest valid one, as the settings do).
   */
  readonly words: (issue: z.core.$ZodIssue, message: string) => { message: string; details?: ErrorDetails };
}

/**
 * The 400 for an input `schema` refused with `error`, worded for its first issue; an unknown key
 * comes first (`usrname` is why `username` is missing, and its message names `username`).
 */
export function refuse(refusal: Refusal, schema: z.ZodType, error: z.ZodError): InputError {
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0]!;
  const { message, details } = refusal.words(issue, issueMessage(schema, issue));
  return new InputError(refusal.code, message, details);
}

/** `input` as `schema` reads it, or the refusal's 400. */
export function parseOr<S extends z.ZodType>(schema: S, refusal: Refusal, input: unknown): z.output<S> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  throw refuse(refusal, schema, parsed.error);
}

/**
 * An issue in words: zod's own message, except that an unknown key is named with the closest key
 * the object at its path takes (`unknown key "usrname" (did you mean "username"?)`).
 */
export function issueMessage(schema: z.ZodType, issue: z.core.$ZodIssue): string {
  if (issue.code !== 'unrecognized_keys') return issue.message;
  const valid = keysAt(schema, issue.path);
  return issue.keys.map((key) => unknownKeyMessage('key', key, valid)).join(', ');
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  in?: z.ZodType;
}

/** The keys the objects at `path` in `schema` take (every option's, below a union). */
function keysAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const def = schema._zod.def as unknown as Def;
  const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
  if (inner) return keysAt(inner, path);
  if (def.type === 'union') return [...new Set((def.options ?? []).flatMap((o) => keysAt(o, path)))];
  if (path.length === 0) return def.type === 'object' ? Object.keys(def.shape ?? {}) : [];
  const [head, ...rest] = path;
  if (def.type === 'object') {
    const field = def.shape?.[String(head)];
    return field ? keysAt(field, rest) : [];
  }
  if (def.type === 'array' && def.element) return keysAt(def.element, rest);
  if (def.type === 'record' && def.valueType) return keysAt(def.valueType, rest);
  return [];
}
