import { Hono } from 'hono';
import { userView } from '../auth/users.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';
import { listPage } from './paging.js';

/**
 * `GET/POST /__admin/users`, `PUT/DELETE /__admin/users/:username` (docs/admin-api.md). Answers never
 * carry a password: the admin API may be read by anyone who reaches the port (a dashboard, CI logs).
 */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  return mount(new Hono(), {
    // Users grow with use (as many as were added): a page of them (decision 0236).
    listUsers: (c, { query }) =>
      listPage('users', users.list(), query, {
        idOf: (u) => u.username,
        what: 'user',
        view: userView,
        signal: c.req.raw.signal,
      }),
    addUser: (_c, { body }) => userView(users.add(body)),
    // Replaced in place, validated as POST; tokens already issued stay valid.
    updateUser: (_c, { params, body }) => userView(users.replace(params.username, body)),
    deleteUser: (_c, { params }) => {
      users.remove(params.username);
    },
  });
}
