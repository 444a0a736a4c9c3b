import { Hono } from 'hono';
import { type User, userView } from '../auth/users.js';
import type { Emulator } from '../emulator.js';
import { jsonListPieces, slicedBody } from './export.js';
import { mount } from './mount.js';

/**
 * `GET/POST /__admin/users`, `PUT/DELETE /__admin/users/:username` (docs/admin-api.md). Answers never
 * carry a password: the admin API may be read by anyone who reaches the port (a dashboard, CI logs).
 */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  return mount(new Hono(), {
    // Every user (as many as were added), written in slices (decision 0229).
    listUsers: (c) =>
      c.body(
        slicedBody(async () => jsonListPieces('users', views(users.list())), c.req.raw.signal),
        200,
        { 'Content-Type': 'application/json; charset=utf-8' },
      ),
    addUser: (_c, { body }) => userView(users.add(body)),
    // Replaced in place, validated as POST; tokens already issued stay valid.
    updateUser: (_c, { params, body }) => userView(users.replace(params.username, body)),
    deleteUser: (_c, { params }) => {
      users.remove(params.username);
    },
  });
}

/** The users as the admin API shows them, one at a time. */
function* views(list: readonly User[]): Generator<unknown> {
  for (const u of list) yield userView(u);
}
