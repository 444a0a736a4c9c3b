import type { MiddlewareHandler } from 'hono';
import type { Emulator } from '../emulator.js';

/**
 * Tells the live stream and the info log of every admin call answered 4xx, with the problem's code
 * and message: a CI job whose setup call was refused shows why in the emulator's own log.
 */
export function announceRefused(emulator: Emulator): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const { status } = c.res;
    if (status < 400 || status > 499 || !emulator.activity.active) return;
    const problem = (await c.res
      .clone()
      .json()
      .catch(() => null)) as { error?: { code?: string; message?: string } } | null;
    emulator.activity.publish({
      kind: 'refused',
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      status,
      code: problem?.error?.code ?? 'http_error',
      message: problem?.error?.message ?? `HTTP ${status}`,
    });
  };
}
