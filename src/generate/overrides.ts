/**
 * `overrides`: a deep partial of the body merged last (decision 0009). Objects merge member by
 * member, arrays element by element (index i merges into element i; extra elements are appended),
 * `null` removes a member, anything else replaces. See docs/generator.md.
 */
import type { DeepPartial, NotificationBody } from '../contract/index.js';

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function merge(base: unknown, patch: unknown): unknown {
  if (patch === undefined) return base;
  if (Array.isArray(patch)) {
    const out = Array.isArray(base) ? [...base] : [];
    patch.forEach((p, i) => {
      if (p === null) return;
      out[i] = merge(out[i], p);
    });
    return out;
  }
  if (isPlainObject(patch)) {
    const out: Record<string, unknown> = isPlainObject(base) ? { ...base } : {};
    for (const [key, value] of Object.entries(patch)) {
      if (value === null) delete out[key];
      else out[key] = merge(out[key], value);
    }
    return out;
  }
  return patch;
}

/** The body with `overrides` merged in (the input is not modified; validate the result). */
export function applyOverrides(
  body: NotificationBody,
  overrides: DeepPartial<NotificationBody> | Record<string, unknown>,
): NotificationBody {
  return merge(structuredClone(body), overrides) as NotificationBody;
}
