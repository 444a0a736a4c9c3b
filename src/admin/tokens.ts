import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `GET /__admin/tokens[?username=]` (expiry judged on the emulator clock), `DELETE /__admin/tokens/:token`. */
export function tokenRoutes(emulator: Emulator): Hono {
  const { tokens } = emulator.auth;
  return mount(new Hono(), {
    listTokens: (_c, { query }) => ({ tokens: tokens.list(query) }),
    revokeToken: (_c, { params }) => {
      tokens.revoke(params.token);
    },
  });
}
