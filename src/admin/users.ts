import { Hono } from 'hono';
import { userView } from '../auth/users.js';
import type { Emulator } from '../emulator.js';
import { mount } from './mount.js';
import { readJsonBody } from './read-json.js';

/**
 * `GET/POST /__admin/users`, `PUT/DELETE /__admin/users/:username` (docs/admin-api.md). Answers never
 * carry a password: the admin API may be read by anyone who reaches the port (a dashboard, CI logs).
 */
export function userRoutes(emulator: Emulator): Hono {
  const { users } = emulator.auth;
  return mount(new Hono(), {
    listUsers: () => ({ users: users.list().map(userView) }),
    addUser: async (c) => {
      const added = users.add(await readJsonBody(c));
      return userView(added);
    },
    // Replaced in place, validated as POST; tokens already issued stay valid.
    updateUser: async (c, { params }) => {
      const changed = users.replace(params.username, await readJsonBody(c));
      return userView(changed);
    },
    deleteUser: (_c, { params }) => {
      users.remove(params.username);
    },
  });
}
