import { Hono } from 'hono';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';
import { listPage } from './paging.js';

/** `GET /__admin/tokens[?username=]` (a page) (expiry judged on the emulator clock), `DELETE /__admin/tokens/:token`. */
export function tokenRoutes(emulator: Emulator): Hono {
  const { tokens } = emulator.auth;
  return mount(new Hono(), {
    // Up to MAX_TOKENS (10,000): a page of them (decision 0236).
    listTokens: (c, { query: { username, ...page } }) =>
      listPage('tokens', tokens.list(username === undefined ? {} : { username }), page, {
        idOf: (t) => t.token,
        what: 'token',
        view: (t) => t,
        signal: c.req.raw.signal,
      }),
    revokeToken: (_c, { params }) => {
      tokens.revoke(params.token);
    },
  });
}
