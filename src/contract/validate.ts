/** Validation of a body against the contract, with errors that name every failing field path. */
import type { z } from 'zod';
import { formatPath, InputError } from '../errors.js';

/** Most issues listed in one error message (the rest are counted). */
export const MAX_LISTED_ISSUES = 5;

/** Human-readable lines `path: message` for zod issues. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string[] {
  return issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
}

/** Parses `body` with `schema` or throws an InputError naming the field paths (code body_invalid). */
export function assertValidBody<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const lines = describeIssues(result.error.issues);
  const shown = lines.slice(0, MAX_LISTED_ISSUES).join('; ');
  const more = lines.length > MAX_LISTED_ISSUES ? ` (and ${lines.length - MAX_LISTED_ISSUES} more)` : '';
  throw new InputError(
    'body_invalid',
    `${what} is not a valid notification body: ${shown}${more}. Fix the overrides so every field keeps the type and format of spec "Resources and their fields" (see docs/notification.schema.json).`,
    { path: formatPath(result.error.issues[0]?.path ?? []), issues: lines },
  );
}
