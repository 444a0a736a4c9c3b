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
