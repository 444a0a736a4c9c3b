import type { Context } from 'hono';
import { InputError } from '../errors.js';

/** The request body as JSON (an empty body reads as `{}`), or a 400 naming the problem. */
export async function readJsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('invalid_json', 'The request body must be JSON (Content-Type: application/json).');
  }
}

/** A route parameter that must be a positive integer (e.g. a BookingID). */
export function intParam(value: string | undefined, name: string): number {
  const n = Number(value);
  if (!value || !Number.isSafeInteger(n) || n <= 0) {
    throw new InputError('invalid_parameter', `${name} must be a positive integer, got "${value ?? ''}".`, {
      path: name,
    });
  }
  return n;
}
