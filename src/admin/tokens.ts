import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';

/** `GET /__admin/tokens[?username=]` (expiry judged on the emulator clock), `DELETE /__admin/tokens/:token`. */
export function tokenRoutes(emulator: Emulator): Hono {
  const { tokens } = emulator.auth;
  return mount(new Hono(), {
    listTokens: (c) => {
      const username = c.req.query('username');
      return { tokens: tokens.list(username === undefined ? {} : { username }) };
    },
    revokeToken: (c) => {
      tokens.revoke(c.req.param('token'));
    },
  });
}
